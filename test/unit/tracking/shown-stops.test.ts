import { describe, expect, it } from 'vitest';
import {
  endSession,
  type GuidanceSession,
  type GuidanceStop,
  startSession,
} from '#shared/guidance/domain/session.ts';
import {
  matchShownStop,
  type ShownStop,
  shownStopsAfter,
  shownTripStop,
  watchedShownStops,
} from '#shared/tracking/domain/shown-stops.ts';

const T0 = Date.UTC(2026, 10, 10, 12, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;
// One degree of latitude is 69.09 miles on the haversine sphere used here.
const MILE_DEG = 1 / 69.09;

function guidanceStop(id: string, latitude: number, overrides: Partial<GuidanceStop> = {}): GuidanceStop {
  return {
    id,
    stationId: `stn_${id}`,
    name: `Station ${id}`,
    chain: "Love's",
    latitude,
    longitude: -97,
    address: '1 Main St',
    milesAhead: 20,
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

const fillAt = (latitude: number, endedAtMs: number) => ({ latitude, longitude: -97, endedAtMs });

describe('the stops guidance showed', () => {
  const a = guidanceStop('gds_a', 35);
  const b = guidanceStop('gds_b', 36);
  const ids = (entries: readonly ShownStop[]) => entries.map((e) => [e.stop.id, e.withdrawnAtMs]);

  it('keeps a stop that left the plan, dated by the change, and forgets it 6 hours later', () => {
    // The plan's own stops stay in the session, not twice.
    expect(shownStopsAfter([], null, session([a]), T0)).toEqual([]);
    const replaced = shownStopsAfter([], session([a]), session([b]), T0 + HOUR);
    expect(ids(replaced)).toEqual([['gds_a', T0 + HOUR]]);
    // Without the long wording of the plan: the tracking item is billed by its size.
    expect(replaced[0]?.stop).not.toHaveProperty('reason');
    // A later change keeps the first withdrawal's time; the plan's stops are watched as well.
    const later = shownStopsAfter(replaced, session([b]), session([b]), T0 + 2 * HOUR);
    expect(later).toEqual(replaced);
    expect(ids(watchedShownStops(later, session([b]), T0 + 2 * HOUR))).toEqual([
      ['gds_b', null],
      ['gds_a', T0 + HOUR],
    ]);
    expect(shownStopsAfter(later, session([b]), session([b]), T0 + 7 * HOUR + MIN)).toEqual([]);
    expect(ids(watchedShownStops(later, session([b]), T0 + 7 * HOUR + MIN))).toEqual([['gds_b', null]]);
  });

  it('a stop back in the plan is no longer withdrawn', () => {
    const replaced = shownStopsAfter([], session([a]), session([b]), T0 + HOUR);
    expect(shownStopsAfter(replaced, session([b]), session([a, b]), T0 + 2 * HOUR)).toEqual([]);
  });

  it('keeps the stops of a session that ended, as that session showed them', () => {
    const shown = session([a], { tripId: 'trip_1' });
    const ended = shownStopsAfter([], shown, endSession(shown, 'caller_cancelled', T0 + HOUR), T0 + HOUR);
    expect(ended).toEqual([
      {
        guidanceId: 'gd_1',
        tripId: 'trip_1',
        stop: expect.objectContaining({ id: 'gds_a', stationId: 'stn_gds_a', netPrice: 3.48 }),
        withdrawnAtMs: T0 + HOUR,
      },
    ]);
    expect(watchedShownStops(ended, null, T0 + 2 * HOUR).map((e) => e.stop.id)).toEqual(['gds_a']);
    expect(watchedShownStops(ended, null, T0 + 8 * HOUR)).toEqual([]);
  });

  it('holds at most 8, dropping those withdrawn longest ago', () => {
    let shown: ShownStop[] = [];
    for (let i = 0; i < 20; i++) {
      const before = session([guidanceStop(`gds_${i}`, 35 + i)]);
      const after = session([guidanceStop(`gds_${i + 1}`, 36 + i)]);
      shown = shownStopsAfter(shown, before, after, T0 + i * MIN);
    }
    expect(shown).toHaveLength(8);
    expect(shown[0]?.stop.id).toBe('gds_19');
    expect(shown[7]?.stop.id).toBe('gds_12');
  });

  it('names the trip stop a shown stop carried out', () => {
    const [entry] = watchedShownStops([], session([{ ...a, tripStopId: 'tsp_1' }], { tripId: 'trip_1' }), T0);
    expect(entry && shownTripStop(entry)).toEqual({ tripId: 'trip_1', stopId: 'tsp_1' });
  });
});

describe('a detected fill at a shown stop', () => {
  const a = guidanceStop('gds_a', 35);
  const withdrawn = shownStopsAfter([], session([a]), session([]), T0 + HOUR);

  it('matches within 0.5 mile, in the window of the fill’s own time, withdrawn or not', () => {
    expect(matchShownStop(withdrawn, fillAt(35 + 0.4 * MILE_DEG, T0 + 2 * HOUR))?.stop.id).toBe('gds_a');
    expect(matchShownStop(withdrawn, fillAt(35 + 0.6 * MILE_DEG, T0 + 2 * HOUR))).toBeNull();
    expect(matchShownStop(withdrawn, fillAt(35, T0 + 7 * HOUR + MIN))).toBeNull();
    expect(matchShownStop(withdrawn, fillAt(35, T0 - 31 * MIN))).toBeNull();
  });

  it('of two shown stops in range, the nearest', () => {
    const near = guidanceStop('gds_near', 35 + 0.1 * MILE_DEG);
    const watched = watchedShownStops(withdrawn, session([near]), T0 + HOUR);
    expect(matchShownStop(watched, fillAt(35 + 0.15 * MILE_DEG, T0 + 2 * HOUR))?.stop.id).toBe('gds_near');
  });
});
