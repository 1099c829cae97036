import type { PendingVerification } from '#shared/fuelings/domain/verification-recheck.ts';
import type { GuidanceSession } from '#shared/guidance/domain/session.ts';
import type { Outbox } from './outbox.ts';
import type { ShownStop } from './shown-stops.ts';
import { initialTrackerState, type TrackerState } from './tracker.ts';

/**
 * Everything the guidance worker keeps per vehicle, together so that one conditional write
 * commits a cycle: the detection state, the active guidance session, and when the vehicle was
 * last heard from.
 */
export interface VehicleTracking {
  fleetId: string;
  vehicleId: string;
  tracker: TrackerState;
  session: GuidanceSession | null;
  /** Stops guidance showed that a fill would still match (shown-stops.ts); absent: none. */
  shownStops?: ShownStop[];
  /** Receipt time of the newest breadcrumb the worker saw; null before the first. */
  lastSeenMs: number | null;
  offline: boolean;
  /**
   * Reported purchases whose verdict was `unverified`, waiting for late breadcrumbs to re-check them
   * once (fuelings/verification-recheck.ts); written by POST /v1/fuelings; absent: none.
   */
  pendingVerifications?: PendingVerification[];
  /** Left by the last committed change when its follow-up work did not finish. */
  outbox: Outbox | null;
  /** Optimistic lock: every write expects the version it read. */
  version: number;
}

export function emptyTracking(fleetId: string, vehicleId: string): VehicleTracking {
  return {
    fleetId,
    vehicleId,
    tracker: initialTrackerState(),
    session: null,
    shownStops: [],
    lastSeenMs: null,
    offline: false,
    outbox: null,
    version: 0,
  };
}

/**
 * Whether no worker cycle has committed the item yet: absent (version 0), or created by POST
 * /v1/fuelings to keep a purchase pending before the vehicle's first breadcrumb was processed.
 */
export const isFirstCycle = (tracking: Pick<VehicleTracking, 'version' | 'lastSeenMs'>): boolean =>
  tracking.version === 0 || tracking.lastSeenMs === null;
