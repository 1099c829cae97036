import { vehicleOfflineEvent } from '#shared/events/domain/event-payloads.ts';
import { GUIDANCE_POLICY } from '#shared/guidance/domain/policy.ts';
import { outboxOf } from '../domain/outbox.ts';
import { ONLINE_INDEX_SHARDS } from '../store/online-index.ts';
import type { VehiclePositionStore } from '../store/vehicle-positions.ts';
import type { SilentVehicle, VehicleTrackingStore } from '../store/vehicle-tracking.ts';
import { carryOut, type OutboxDeps } from './tracking-outbox.ts';

export interface OfflineSweepDeps extends OutboxDeps {
  tracking: VehicleTrackingStore;
  positions: Pick<VehiclePositionStore, 'recent' | 'rejoinOnlineIndex'>;
  now: () => number;
  /** Told about a vehicle the run could not handle (logged; the next run tries again). */
  onError?: (vehicle: SilentVehicle, error: unknown) => void;
}

/**
 * The every-minute sweep: vehicles silent for longer than the offline threshold go offline, each
 * with one vehicle.offline. It reads only the online index's shards (no table scan), works them in
 * parallel within a time budget (what is left stays in the index for the next run), and marks a
 * vehicle through the same versioned write as the worker, with the event in the outbox, in one
 * transaction with its removal from the index that holds only while its position item is as read:
 * a breadcrumb racing the sweep wins, and the event is never lost between the mark and its record.
 */
export async function sweepOfflineVehicles(
  deps: OfflineSweepDeps,
  /** Stop starting new work after this long (ms); the next minute's run picks up the rest. */
  budgetMs = Number.POSITIVE_INFINITY,
): Promise<{ markedOffline: number; failed: number }> {
  const nowMs = deps.now();
  const startedMs = Date.now();
  const cutoffMs = nowMs - GUIDANCE_POLICY.offlineAfterMinutes * 60_000;
  let markedOffline = 0;
  let failed = 0;
  const shards = Array.from({ length: ONLINE_INDEX_SHARDS }, (_, shard) => shard);
  await Promise.all(
    shards.map(async (shard) => {
      for (const candidate of await deps.tracking.silentSince(shard, cutoffMs)) {
        if (Date.now() - startedMs > budgetMs) return;
        try {
          if (await markOffline(deps, candidate, cutoffMs)) markedOffline += 1;
        } catch (error) {
          // One vehicle's fault (its outbox keeps failing…) must not hold back the rest of its shard.
          failed += 1;
          deps.onError?.(candidate, error);
        }
      }
    }),
  );
  return { markedOffline, failed };
}

/**
 * The sweep's judgement for one named vehicle at `nowMs`, without the index: the sandbox simulator
 * runs it for its own trucks on the simulation's clock, which may run ahead of the wall clock the
 * every-minute sweep works on. True when the vehicle went offline now.
 */
export function markOfflineIfSilent(
  deps: OfflineSweepDeps,
  vehicle: Pick<SilentVehicle, 'fleetId' | 'vehicleId'>,
): Promise<boolean> {
  const cutoffMs = deps.now() - GUIDANCE_POLICY.offlineAfterMinutes * 60_000;
  return markOffline(deps, { ...vehicle, source: 'position' }, cutoffMs);
}

/** One candidate from the index, judged on its real state. True when it went offline now. */
async function markOffline(
  deps: OfflineSweepDeps,
  candidate: Pick<SilentVehicle, 'fleetId' | 'vehicleId' | 'source'>,
  cutoffMs: number,
): Promise<boolean> {
  const { fleetId, vehicleId } = candidate;
  const tracking = await deps.tracking.get(fleetId, vehicleId);
  // An earlier change committed but did not finish (an offline vehicle with follow-up work has a
  // visit marker for this): finish it.
  await carryOut(deps, tracking);
  // Read after the tracking item: a breadcrumb the worker has not processed yet (it is behind, or
  // its cycle had nothing to store) still counts as heard from.
  const positions = await deps.positions.recent(fleetId, vehicleId);
  const receivedAtMs = positions?.latest.receivedAtMs ?? Number.NEGATIVE_INFINITY;
  const lastSeenMs = Math.max(tracking.lastSeenMs ?? Number.NEGATIVE_INFINITY, receivedAtMs);
  if (tracking.version === 0 || tracking.offline || tracking.lastSeenMs === null) {
    // Nothing to announce: it leaves the indexes, unless a breadcrumb came since or a worker cycle
    // changed the tracking item meanwhile (both conditions of the removal).
    if (candidate.source === 'marker') await deps.tracking.removeMarker(tracking);
    else if (positions && receivedAtMs < cutoffMs)
      await deps.tracking.leaveOnlineIndex(tracking, positions.version);
    return false;
  }
  if (lastSeenMs >= cutoffMs) {
    // Heard from: a bucket is coarse. A marker of an online vehicle is not needed (its position item
    // is in the index: put back there first, in case an earlier sweep took it out).
    if (candidate.source === 'marker') {
      if (positions) await deps.positions.rejoinOnlineIndex(fleetId, vehicleId, receivedAtMs);
      await deps.tracking.removeMarker(tracking);
    }
    return false;
  }
  const stored = await deps.tracking.saveOffline(
    {
      ...tracking,
      offline: true,
      // Stored, so the worker's late cycle for those breadcrumbs hears nothing newer: no false online.
      lastSeenMs,
      outbox: outboxOf([vehicleOfflineEvent(vehicleId, lastSeenMs)]),
    },
    positions?.version ?? null,
  );
  // Lost to a worker cycle or a breadcrumb that just came: it is online.
  if (!stored) return false;
  // The commit put a visit marker, in case the event could not be recorded now: it was.
  await carryOut(deps, stored);
  await deps.tracking.removeMarker(stored);
  return true;
}
