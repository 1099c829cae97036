import { isDeepStrictEqual } from 'node:util';
import type { GuidanceSession, GuidanceStop } from '../guidance/session.ts';
import type { VehicleTracking } from './vehicle-tracking.ts';

/**
 * When a guidance worker cycle has to write the tracking item, and when it may leave it as it was
 * (a quiet cycle). A quiet cycle loses nothing: the next cycle starts again from the stored item
 * and replays the breadcrumbs since (the position item's ring holds them, or history), so
 * detection comes out exactly the same; what it would have stored is only what each breadcrumb
 * moves a little (position, fuel, miles ahead, gallons), which the next cycle recomputes anyway.
 * Writing the item on every breadcrumb was most of a breadcrumb's write cost (docs/cost.md).
 */
export const COMMIT_POLICY = {
  /**
   * An active session's stored position (what GET guidance shows) stays at most this far behind
   * the newest breadcrumb (recorded time): under the 5 minutes a position is graded `live`, for a
   * truck reporting every minute.
   */
  maxSessionLagMs: 4 * 60_000,
  /**
   * The stored last-seen time stays at most this far behind the receipt of the newest breadcrumb:
   * under the 15-minute offline threshold, so a vehicle heard from after a silence always commits,
   * and an offline sweep racing that breadcrumb loses the version race instead of marking it.
   */
  maxLastSeenLagMs: 10 * 60_000,
  /** A cycle replays at most this many breadcrumbs since the stored state (high-cadence trackers). */
  maxReplayedFixes: 10,
} as const;

/**
 * Whether a cycle's outcome must be stored: anything it has to announce or carry out, any change
 * of what the next cycle reads from the session (phase, stop set, acknowledgements, skips,
 * announcements), the first cycle of a vehicle, and the lag bounds of {@link COMMIT_POLICY}.
 */
export function mustCommit(before: VehicleTracking, after: VehicleTracking, replayedFixes: number): boolean {
  if (before.version === 0 || after.outbox !== null || before.offline !== after.offline) return true;
  if (replayedFixes >= COMMIT_POLICY.maxReplayedFixes) return true;
  if (lagMs(before.lastSeenMs, after.lastSeenMs) >= COMMIT_POLICY.maxLastSeenLagMs) return true;
  if (!before.session || !after.session) return before.session !== after.session;
  if (!isDeepStrictEqual(sessionMemory(before.session), sessionMemory(after.session))) return true;
  return (
    after.session.status === 'active' &&
    lagMs(before.session.position?.recordedAtMs ?? null, after.session.position?.recordedAtMs ?? null) >=
      COMMIT_POLICY.maxSessionLagMs
  );
}

const lagMs = (stored: number | null, next: number | null) =>
  next === null ? 0 : stored === null ? Number.POSITIVE_INFINITY : next - stored;

/**
 * Session fields every breadcrumb moves and every cycle recomputes from the vehicle's state: the
 * rest (status, phase, which stations, their ids, acknowledgements, skips, what was announced,
 * revision, forceReplan…) is what later cycles build on, so a change there is always stored. Named
 * as what may drift, so a field added later is stored by default.
 */
const DRIFTING_SESSION_FIELDS = new Set<keyof GuidanceSession>([
  'position',
  'fuel',
  'updatedAtMs',
  'planUpdatedAtMs',
  'planReason',
  'remainingMiles',
  'projectedArrivalFuelPercent',
]);
const DRIFTING_STOP_FIELDS = new Set<keyof GuidanceStop>([
  'milesAhead',
  'gallonsToBuy',
  'reason',
  'price',
  'discount',
  'netPrice',
  'priceIsStale',
  'detourMiles',
]);

const without = (value: object, drifting: ReadonlySet<string>) =>
  Object.fromEntries(Object.entries(value).filter(([name]) => !drifting.has(name)));

/**
 * What later cycles build on, as stored (through JSON: an undefined member is no member) and
 * compared member by member (a map stored before the packed blob may come back in another order).
 */
const sessionMemory = (session: GuidanceSession): unknown =>
  JSON.parse(
    JSON.stringify({
      ...without(session, DRIFTING_SESSION_FIELDS),
      stops: session.stops.map((stop) => without(stop, DRIFTING_STOP_FIELDS)),
    }),
  );
