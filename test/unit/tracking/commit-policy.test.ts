import { describe, expect, it } from 'vitest';
import { type GuidanceSession, type GuidanceStop, startSession } from '#shared/guidance/domain/session.ts';
import { COMMIT_POLICY, mustCommit } from '#shared/tracking/domain/commit-policy.ts';
import { outboxOf } from '#shared/tracking/domain/outbox.ts';
import { emptyTracking, type VehicleTracking } from '#shared/tracking/domain/vehicle-tracking.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const MINUTE = 60_000;

const stop = (overrides: Partial<GuidanceStop> = {}): GuidanceStop => ({
  id: 'gds_1',
  stationId: 'stn_1',
  name: 'Pilot Amarillo',
  chain: 'Pilot',
  latitude: 35.2,
  longitude: -101.8,
  address: '1 Main St',
  milesAhead: 120,
  detourMiles: 0.4,
  gallonsToBuy: 80,
  price: 3.459,
  discount: 0.1,
  netPrice: 3.359,
  priceIsStale: false,
  reason: 'cheapest',
  recommendedAtMs: NOW - 30 * MINUTE,
  acknowledgedAtMs: null,
  ...overrides,
});

const session = (overrides: Partial<GuidanceSession> = {}): GuidanceSession => ({
  ...startSession({
    id: 'gd_1',
    vehicleId: 'veh_1',
    destination: { latitude: 39.74, longitude: -104.99, name: 'Denver' },
    minArrivalFuelPercent: 15,
    nowMs: NOW - 60 * MINUTE,
  }),
  phase: 'stop_recommended',
  stops: [stop()],
  announced: [{ stationId: 'stn_1', gallonsToBuy: 80, netPrice: 3.359 }],
  revision: 1,
  position: { latitude: 33, longitude: -97, recordedAtMs: NOW },
  fuel: { percent: 60, source: 'reported', reportedAtMs: NOW },
  ...overrides,
});

/** The stored item: a vehicle heard from at NOW, with an active session. */
const stored = (overrides: Partial<VehicleTracking> = {}): VehicleTracking => ({
  ...emptyTracking('flt_1', 'veh_1'),
  lastSeenMs: NOW,
  session: session(),
  version: 7,
  ...overrides,
});

/** The cycle `minutes` after the stored one: position, fuel and the plan's figures moved on. */
const nextMinute = (before: VehicleTracking, minutes = 1, sessionChanges: Partial<GuidanceSession> = {}) => {
  const at = NOW + minutes * MINUTE;
  const previous = before.session as GuidanceSession;
  return {
    ...before,
    lastSeenMs: at,
    tracker: { ...before.tracker, processedThroughMs: at },
    session: {
      ...previous,
      position: { latitude: 33 + minutes / 60, longitude: -97, recordedAtMs: at },
      fuel: { percent: 60 - minutes / 10, source: 'reported' as const, reportedAtMs: at },
      updatedAtMs: at,
      planUpdatedAtMs: at,
      remainingMiles: 700 - minutes,
      projectedArrivalFuelPercent: 21.5,
      planReason: `1 stop, ${80 + minutes} gal`,
      stops: previous.stops.map((s) => ({
        ...s,
        milesAhead: s.milesAhead - minutes,
        gallonsToBuy: 80 + minutes / 10,
        reason: 'cheapest, moved',
        price: 3.469,
        netPrice: 3.369,
        priceIsStale: true,
      })),
      ...sessionChanges,
    },
  };
};

describe('which guidance cycles write the tracking item', () => {
  it('leaves it as it was for a vehicle without a session when only detection state moved', () => {
    const before = stored({ session: null });
    const after = {
      ...before,
      lastSeenMs: NOW + MINUTE,
      tracker: { ...before.tracker, processedThroughMs: NOW + MINUTE },
    };
    expect(mustCommit(before, after, 1)).toBe(false);
  });

  it('writes every cycle that moved an active session (what GET guidance shows), and none that did not', () => {
    const before = stored();
    expect(mustCommit(before, nextMinute(before, 1), 1)).toBe(true);
    expect(mustCommit(before, nextMinute(before, 1, { phase: 'approaching_stop' }), 1)).toBe(true);
    expect(mustCommit(before, { ...before, lastSeenMs: NOW + MINUTE }, 1)).toBe(false);
    // An ended session no cycle changes any more.
    const ended = stored({ session: session({ status: 'completed', endReason: 'arrived', endedAtMs: NOW }) });
    expect(mustCommit(ended, { ...ended, lastSeenMs: NOW + MINUTE }, 1)).toBe(false);
  });

  it('writes the first cycle, anything to carry out, and a change of the offline flag', () => {
    expect(mustCommit(stored({ version: 0, session: null }), stored({ version: 0, session: null }), 1)).toBe(
      true,
    );
    const before = stored({ session: null });
    const event = { type: 'vehicle.fuel_low' as const, data: {}, dedupeKey: 'k' };
    expect(mustCommit(before, { ...before, outbox: outboxOf([event]) }, 1)).toBe(true);
    const offline = stored({ offline: true, session: null });
    expect(mustCommit(offline, { ...offline, offline: false }, 1)).toBe(true);
  });

  it('bounds how many breadcrumbs the next cycle replays, and how far last-seen lags', () => {
    const before = stored({ session: null });
    const heard = (minutes: number) => ({ ...before, lastSeenMs: NOW + minutes * MINUTE });
    expect(mustCommit(before, heard(1), COMMIT_POLICY.maxReplayedFixes - 1)).toBe(false);
    expect(mustCommit(before, heard(1), COMMIT_POLICY.maxReplayedFixes)).toBe(true);
    const lagMinutes = COMMIT_POLICY.maxLastSeenLagMs / MINUTE;
    expect(mustCommit(before, heard(lagMinutes - 1), 2)).toBe(false);
    // A vehicle heard from after a silence: under the offline threshold, it always writes.
    expect(mustCommit(before, heard(lagMinutes), 1)).toBe(true);
    expect(mustCommit(stored({ session: null, lastSeenMs: null }), heard(0), 1)).toBe(true);
  });

  it('writes a session started or ended, and compares sessions as stored (key order, absent members)', () => {
    const none = stored({ session: null });
    expect(mustCommit(none, { ...none, session: session() }, 1)).toBe(true);
    const before = stored();
    expect(mustCommit(before, { ...before, session: null }, 1)).toBe(true);
    // Stored before the packed blob: a map in another key order, without the optional members.
    const reordered = Object.fromEntries(Object.entries(session()).reverse()) as unknown as GuidanceSession;
    const after = { ...before, session: { ...session(), tripId: undefined } };
    expect(mustCommit(stored({ session: reordered }), after, 1)).toBe(false);
  });
});
