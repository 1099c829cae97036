import { isDeepStrictEqual } from 'node:util';
import type { GuidanceSession } from '#shared/guidance/domain/session.ts';
import type { VehicleTracking } from './vehicle-tracking.ts';

/**
 * When a guidance worker cycle has to write the tracking item, and when it may leave it as it was
 * (a quiet cycle). A quiet cycle loses nothing: the next cycle starts again from the stored item
 * and replays the breadcrumbs since (the position item's ring holds them, or history), so
 * detection comes out exactly the same. What a reader sees never lags: GET guidance shows the
 * stored session, so a cycle that moved an active session (its position, fuel, miles ahead, every
 * breadcrumb) always writes. The quiet cycles are those of vehicles without one: most of a
 * fleet, whose tracking item is only detection state between events (docs/cost.md).
 */
export const COMMIT_POLICY = {
  /**
   * The stored last-seen time stays at most this far behind the receipt of the newest breadcrumb:
   * under the 15-minute offline threshold, so a vehicle heard from after a silence always commits,
   * and an eventually consistent read that missed the sweep's offline mark still tries to commit
   * (and, losing the version race, sees the mark). A breadcrumb racing the sweep is protected by
   * the position item's version in the sweep's transaction.
   */
  maxLastSeenLagMs: 10 * 60_000,
  /** A cycle replays at most this many breadcrumbs since the stored state. */
  maxReplayedFixes: 10,
} as const;

/**
 * Whether a cycle's outcome must be stored: anything it has to announce or carry out, any change
 * of the session, the offline flag, a vehicle's first cycle, and the bounds of {@link COMMIT_POLICY}.
 */
export function mustCommit(before: VehicleTracking, after: VehicleTracking, replayedFixes: number): boolean {
  if (before.version === 0 || after.outbox !== null || before.offline !== after.offline) return true;
  if (!isDeepStrictEqual(asStored(before.session), asStored(after.session))) return true;
  if (replayedFixes >= COMMIT_POLICY.maxReplayedFixes) return true;
  const lastSeenLagMs =
    after.lastSeenMs === null
      ? 0
      : before.lastSeenMs === null
        ? Number.POSITIVE_INFINITY
        : after.lastSeenMs - before.lastSeenMs;
  return lastSeenLagMs >= COMMIT_POLICY.maxLastSeenLagMs;
}

/**
 * A session as stored (through JSON: an undefined member is no member), compared member by member
 * (a map stored before the packed blob may come back in another key order).
 */
const asStored = (session: GuidanceSession | null): unknown =>
  session === null ? null : JSON.parse(JSON.stringify(session));
