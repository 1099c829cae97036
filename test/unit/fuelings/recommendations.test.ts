import { describe, expect, it } from 'vitest';
import { netRecommendationChanges, recommendationChanges } from '#shared/fuelings/domain/recommendations.ts';
import {
  endSession,
  type GuidanceSession,
  type GuidanceStop,
  startSession,
} from '#shared/guidance/domain/session.ts';

const T0 = Date.UTC(2026, 10, 10, 12, 0, 0);

function guidanceStop(id: string, milesAhead: number, overrides: Partial<GuidanceStop> = {}): GuidanceStop {
  return {
    id,
    stationId: `stn_${id}`,
    name: `Station ${id}`,
    chain: "Love's",
    latitude: 35,
    longitude: -97,
    address: '1 Main St',
    milesAhead,
    detourMiles: 0.4,
    gallonsToBuy: 90,
    price: 3.6,
    discount: 0.12,
    netPrice: 3.48,
    priceIsStale: false,
    reason: 'cheapest',
    recommendedAtMs: T0,
    acknowledgedAtMs: null,
    ...overrides,
  };
}

function session(stops: GuidanceStop[], overrides: Partial<GuidanceSession> = {}): GuidanceSession {
  return {
    ...startSession({
      id: 'gd_1',
      vehicleId: 'veh_1',
      destination: { latitude: 39.7, longitude: -105, name: 'Denver' },
      minArrivalFuelPercent: 10,
      nowMs: T0,
    }),
    stops,
    ...overrides,
  };
}

describe('recommendation changes of a session', () => {
  it('records new stops with the session and trip they belong to', () => {
    const after = session([guidanceStop('gds_a', 80, { tripStopId: 'tsp_1' })], { tripId: 'trip_1' });
    const [change] = recommendationChanges(session([]), after, T0 + 1000);
    expect(change).toMatchObject({
      kind: 'recommended',
      stop: {
        stopId: 'gds_a',
        guidanceId: 'gd_1',
        tripId: 'trip_1',
        tripStopId: 'tsp_1',
        netPrice: 3.48,
        withdrawnAtMs: null,
      },
    });
  });
  it('nothing when the same stops stand (gallons or miles moving are not new recommendations)', () => {
    const before = session([guidanceStop('gds_a', 80)]);
    const after = session([guidanceStop('gds_a', 60, { gallonsToBuy: 95 })]);
    expect(recommendationChanges(before, after, T0)).toEqual([]);
  });
  it('records a standing stop again when it is dated earlier (a start plan re-dated by the day replayed)', () => {
    const before = session([guidanceStop('gds_a', 80, { recommendedAtMs: T0 + 86_400_000 })]);
    const after = session([guidanceStop('gds_a', 79, { recommendedAtMs: T0 })]);
    expect(recommendationChanges(before, after, T0 + 60_000)).toEqual([
      { kind: 'recommended', stop: expect.objectContaining({ stopId: 'gds_a', recommendedAtMs: T0 }) },
    ]);
    // Never dated later by a change.
    expect(recommendationChanges(after, before, T0 + 60_000)).toEqual([]);
  });
  it('a stop withdrawn within 10 road miles was due; one replaced farther ahead was not', () => {
    const before = session([guidanceStop('gds_near', 10), guidanceStop('gds_far', 10.1)]);
    const changes = recommendationChanges(before, session([]), T0 + 5000);
    expect(changes).toEqual([
      { kind: 'withdrawn', vehicleId: 'veh_1', stopId: 'gds_near', withdrawnAtMs: T0 + 5000, due: true },
      { kind: 'withdrawn', vehicleId: 'veh_1', stopId: 'gds_far', withdrawnAtMs: T0 + 5000, due: false },
    ]);
  });
  it('an ended session withdraws every stop it had', () => {
    const before = session([guidanceStop('gds_a', 2)]);
    const ended = endSession(before, 'caller_cancelled', T0 + 1);
    expect(recommendationChanges(before, ended, T0 + 1)).toEqual([
      { kind: 'withdrawn', vehicleId: 'veh_1', stopId: 'gds_a', withdrawnAtMs: T0 + 1, due: true },
    ]);
    expect(recommendationChanges(before, null, T0 + 1)).toHaveLength(1);
  });
  it('the first stop is the one the truck is heading to, since shown; the second is not yet', () => {
    const after = session([
      guidanceStop('gds_a', 80),
      guidanceStop('gds_b', 300, { recommendedAtMs: T0 + 10 }),
    ]);
    const changes = recommendationChanges(session([]), after, T0 + 1000);
    expect(changes).toEqual([
      {
        kind: 'recommended',
        stop: expect.objectContaining({ stopId: 'gds_a', sequence: 0, headingSinceMs: T0 }),
      },
      { kind: 'recommended', stop: expect.objectContaining({ stopId: 'gds_b', sequence: 1 }) },
    ]);
    const second = changes[1];
    expect(second?.kind === 'recommended' && 'headingSinceMs' in second.stop).toBe(false);
  });
  it('a stop shown second becomes the one heading to when the first leaves the plan, at that moment', () => {
    const before = session([guidanceStop('gds_a', 5), guidanceStop('gds_b', 300)]);
    const after = session([guidanceStop('gds_b', 295)]);
    expect(recommendationChanges(before, after, T0 + 7_200_000)).toEqual([
      { kind: 'withdrawn', vehicleId: 'veh_1', stopId: 'gds_a', withdrawnAtMs: T0 + 7_200_000, due: true },
      {
        kind: 'recommended',
        stop: expect.objectContaining({
          stopId: 'gds_b',
          recommendedAtMs: T0,
          sequence: 0,
          headingSinceMs: T0 + 7_200_000,
        }),
      },
    ]);
    // Still first on the next change: nothing new.
    expect(recommendationChanges(after, session([guidanceStop('gds_b', 290)]), T0 + 7_300_000)).toEqual([]);
  });
  it('a cycle’s changes keep the earliest time a stop became the one heading to', () => {
    // B first at +1 h, a stop put before it at +2 h, first again at +3 h (the record keeps +1 h).
    const a = guidanceStop('gds_a', 5);
    const b = guidanceStop('gds_b', 300);
    const c = guidanceStop('gds_c', 100, { recommendedAtMs: T0 + 7_200_000 });
    const steps = [session([a, b]), session([b]), session([c, b]), session([b])];
    const changes = steps
      .slice(1)
      .flatMap((after, i) => recommendationChanges(steps[i], after, T0 + (i + 1) * 3_600_000));
    const net = netRecommendationChanges(changes).filter(
      (change) => change.kind === 'recommended' && change.stop.stopId === 'gds_b',
    );
    expect(net).toEqual([
      {
        kind: 'recommended',
        stop: expect.objectContaining({ stopId: 'gds_b', headingSinceMs: T0 + 3_600_000 }),
      },
    ]);
  });
});
