import { describe, expect, it } from 'vitest';
import {
  endSession,
  type GuidanceSession,
  type GuidanceStop,
  startSession,
} from '../../../shared/domain/guidance/session.ts';
import {
  matchShownStop,
  shownStopsAfter,
  shownTripStop,
  withdrawnShownStops,
} from '../../../shared/domain/tracking/shown-stops.ts';

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

  it('keeps a stop that left the plan, dated by the change, and forgets it 6 hours later', () => {
    const shown = shownStopsAfter([], session([a]), T0);
    expect(shown).toEqual([{ guidanceId: 'gd_1', tripId: null, stop: a, withdrawnAtMs: null }]);
    const replaced = shownStopsAfter(shown, session([b]), T0 + HOUR);
    expect(replaced.map((e) => [e.stop.id, e.withdrawnAtMs])).toEqual([
      ['gds_b', null],
      ['gds_a', T0 + HOUR],
    ]);
    // A later change keeps the first withdrawal's time.
    expect(shownStopsAfter(replaced, session([b]), T0 + 2 * HOUR)).toEqual(replaced);
    expect(shownStopsAfter(replaced, session([b]), T0 + 7 * HOUR + MIN).map((e) => e.stop.id)).toEqual([
      'gds_b',
    ]);
  });

  it('keeps the stops of a session that ended, as that session showed them', () => {
    const shown = shownStopsAfter([], session([a], { tripId: 'trip_1' }), T0);
    const ended = shownStopsAfter(shown, endSession(session([a]), 'caller_cancelled', T0 + HOUR), T0 + HOUR);
    expect(ended).toEqual([{ guidanceId: 'gd_1', tripId: 'trip_1', stop: a, withdrawnAtMs: T0 + HOUR }]);
    expect(withdrawnShownStops(ended, null, T0 + 2 * HOUR).map((e) => e.stop.id)).toEqual(['gds_a']);
    expect(withdrawnShownStops(ended, null, T0 + 8 * HOUR)).toEqual([]);
  });

  it('holds at most 12, dropping those withdrawn longest ago', () => {
    let shown = shownStopsAfter([], session([]), T0);
    for (let i = 0; i < 20; i++) {
      shown = shownStopsAfter(shown, session([guidanceStop(`gds_${i}`, 35 + i)]), T0 + i * MIN);
    }
    expect(shown).toHaveLength(12);
    expect(shown[0]?.stop.id).toBe('gds_19');
    expect(shown[11]?.stop.id).toBe('gds_8');
  });

  it('names the trip stop a shown stop carried out', () => {
    const [entry] = shownStopsAfter([], session([{ ...a, tripStopId: 'tsp_1' }], { tripId: 'trip_1' }), T0);
    expect(entry && shownTripStop(entry)).toEqual({ tripId: 'trip_1', stopId: 'tsp_1' });
  });
});

describe('a detected fill at a shown stop', () => {
  const a = guidanceStop('gds_a', 35);
  const withdrawn = shownStopsAfter(shownStopsAfter([], session([a]), T0), session([]), T0 + HOUR);

  it('matches within 0.5 mile, in the window of the fill’s own time, withdrawn or not', () => {
    expect(matchShownStop(withdrawn, fillAt(35 + 0.4 * MILE_DEG, T0 + 2 * HOUR))?.stop.id).toBe('gds_a');
    expect(matchShownStop(withdrawn, fillAt(35 + 0.6 * MILE_DEG, T0 + 2 * HOUR))).toBeNull();
    expect(matchShownStop(withdrawn, fillAt(35, T0 + 7 * HOUR + MIN))).toBeNull();
    expect(matchShownStop(withdrawn, fillAt(35, T0 - 31 * MIN))).toBeNull();
  });

  it('of two shown stops in range, the nearest', () => {
    const near = guidanceStop('gds_near', 35 + 0.1 * MILE_DEG);
    const shown = shownStopsAfter(withdrawn, session([near]), T0 + HOUR);
    expect(matchShownStop(shown, fillAt(35 + 0.15 * MILE_DEG, T0 + 2 * HOUR))?.stop.id).toBe('gds_near');
  });
});
