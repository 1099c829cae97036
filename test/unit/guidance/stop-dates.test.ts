import { describe, expect, it } from 'vitest';
import { type GuidanceStop, startSession } from '#shared/guidance/domain/session.ts';
import { stopsDatedByEventTime } from '#shared/guidance/domain/stop-dates.ts';

const YESTERDAY_8AM = Date.parse('2026-11-20T08:00:00Z');
const TODAY_9AM = Date.parse('2026-11-21T09:00:00Z');
const MIN = 60_000;

const stop = (id: string, recommendedAtMs: number): GuidanceStop => ({
  id,
  stationId: `stn_${id}`,
  name: `Stop ${id}`,
  chain: 'Pilot',
  latitude: 35,
  longitude: -100,
  address: '',
  milesAhead: 8,
  detourMiles: 2.1,
  gallonsToBuy: 100,
  price: 3.459,
  discount: 0.1,
  netPrice: 3.36,
  priceIsStale: false,
  reason: 'cheapest',
  recommendedAtMs,
  acknowledgedAtMs: null,
});

/** A session planned from a position recorded at `positionAtMs`, showing `stops`. */
const session = (positionAtMs: number, stops: GuidanceStop[]) => ({
  ...startSession({
    id: 'gd_1',
    vehicleId: 'veh_1',
    destination: { latitude: 39.7, longitude: -105, name: 'Denver' },
    minArrivalFuelPercent: 15,
    nowMs: TODAY_9AM,
  }),
  position: { latitude: 32.8, longitude: -96.8, recordedAtMs: positionAtMs },
  stops,
});

describe('a stop is dated by the event time of the plan that showed it', () => {
  it('re-dates a start plan dated at request time to the recorded_at of the position it was made from, once the replayed day goes on', () => {
    // Guidance started today from yesterday's first breadcrumb; the worker steps through yesterday.
    const started = session(YESTERDAY_8AM, [stop('a', TODAY_9AM)]);
    const stepped = stopsDatedByEventTime(started, YESTERDAY_8AM + MIN);
    expect(stepped.stops.map((s) => s.recommendedAtMs)).toEqual([YESTERDAY_8AM]);
    // And stays so at every later step.
    expect(stopsDatedByEventTime(stepped, YESTERDAY_8AM + 120 * MIN)).toBe(stepped);
  });

  it("keeps a live session's dates: its next breadcrumb is recorded after the stops were shown", () => {
    // Parked overnight, guidance started this morning from last night's position.
    const started = session(YESTERDAY_8AM, [stop('a', TODAY_9AM)]);
    expect(stopsDatedByEventTime(started, TODAY_9AM + MIN)).toBe(started);
  });

  it('re-dates only the stops dated after the step, never later than the step', () => {
    const shownAtStep = stop('b', YESTERDAY_8AM + 30 * MIN);
    const started = session(YESTERDAY_8AM + 40 * MIN, [stop('a', TODAY_9AM), shownAtStep]);
    const stepped = stopsDatedByEventTime(started, YESTERDAY_8AM + 35 * MIN);
    expect(stepped.stops.map((s) => s.recommendedAtMs)).toEqual([
      YESTERDAY_8AM + 35 * MIN,
      shownAtStep.recommendedAtMs,
    ]);
  });
});
