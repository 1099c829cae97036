import { GUIDANCE_POLICY } from '../domain/guidance/policy.ts';
import { formatTimestamp } from '../platform/time.ts';
import type { EventRecorder } from '../store/events.ts';
import { ONLINE_INDEX_SHARDS, type VehicleTrackingStore } from '../store/vehicle-tracking.ts';

export interface OfflineSweepDeps {
  tracking: Pick<VehicleTrackingStore, 'silentSince' | 'markOffline'>;
  events: Pick<EventRecorder, 'record'>;
  now: () => number;
}

/**
 * The every-minute sweep: vehicles silent for longer than the offline threshold go offline, each
 * with one vehicle.offline. It reads only the online index's shards (no table scan). A vehicle is
 * marked first, under the condition that its real last-seen time is past the threshold: a
 * breadcrumb racing the sweep (or a heartbeat that lags) wins, and no offline is announced for a
 * vehicle that just reported.
 */
export async function sweepOfflineVehicles(
  deps: OfflineSweepDeps,
  /** Stop starting new work after this long (ms); the next minute's run picks up the rest. */
  budgetMs = Number.POSITIVE_INFINITY,
): Promise<{ markedOffline: number }> {
  const nowMs = deps.now();
  const startedMs = Date.now();
  const cutoffMs = nowMs - GUIDANCE_POLICY.offlineAfterMinutes * 60_000;
  let markedOffline = 0;
  // Shards side by side, each in order: thousands of trucks going quiet at the end of a shift are
  // worked through in parallel, and what is left over when the budget runs out stays in the index.
  const shards = Array.from({ length: ONLINE_INDEX_SHARDS }, (_, shard) => shard);
  await Promise.all(
    shards.map(async (shard) => {
      for (const vehicle of await deps.tracking.silentSince(shard, cutoffMs)) {
        if (Date.now() - startedMs > budgetMs) return;
        const lastSeenMs = await deps.tracking.markOffline(vehicle, cutoffMs, nowMs);
        if (lastSeenMs === null) continue;
        markedOffline += 1;
        await deps.events.record(
          vehicle.fleetId,
          'vehicle.offline',
          {
            vehicle_id: vehicle.vehicleId,
            last_seen_at: formatTimestamp(lastSeenMs),
            offline_after_minutes: GUIDANCE_POLICY.offlineAfterMinutes,
          },
          { dedupeKey: `vehicle.offline:${vehicle.vehicleId}:${lastSeenMs}` },
        );
      }
    }),
  );
  return { markedOffline };
}
