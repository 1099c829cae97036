import type { PendingVerification } from '#shared/fuelings/domain/verification-recheck.ts';
import type { VehicleTracking } from '../domain/vehicle-tracking.ts';
import { onlinePartition, onlineShardOf, onlineSortTime } from './online-index.ts';
import { packState, unpackState } from './vehicle-tracking-packing.ts';

/**
 * A vehicle's tracking state lives in one item (`FLEET#…`/`VEHTRACK#veh_…`) so one conditional
 * write commits a guidance cycle.
 *
 * The offline sweep finds silent vehicles through the online index (online-index.ts: gsi2 keys on
 * the latest-position item, which ingest keeps current) and through visit markers: tiny items
 * (`VEHSEEN#veh_…`) in gsi1 under `VEHONLINE#<shard>`, sorted by a last-seen time. A marker is put
 * for an offline vehicle whose committed change left follow-up work (the sweep carries it out);
 * heartbeat items of the layout without the online index (refreshed by the worker every ten
 * minutes) are markers too, and the sweep removes each once its vehicle is offline.
 */
export const trackingKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHTRACK#${vehicleId}`,
});

export const heartbeatKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHSEEN#${vehicleId}`,
});

export const markerIndexKeys = (fleetId: string, vehicleId: string, lastSeenMs: number) => ({
  gsi1pk: onlinePartition(onlineShardOf(vehicleId)),
  gsi1sk: `${onlineSortTime(lastSeenMs)}#${fleetId}#${vehicleId}`,
});

/** The condition that the tracking item is still at the version it was read at (0: still absent). */
export const versionAsRead = (tracking: Pick<VehicleTracking, 'version'>) =>
  tracking.version > 0
    ? {
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':version': tracking.version },
      }
    : { ConditionExpression: 'attribute_not_exists(pk)' };

/**
 * The pending purchases as a plain attribute (`pending_verifications`), outside the blob: POST
 * /v1/fuelings adds to them without unpacking the worker's state.
 */
export const storedPending = (pending: readonly PendingVerification[] | undefined) =>
  (pending ?? []).map((entry) => ({
    fueling_id: entry.fuelingId,
    fueled_at: entry.fueledAt,
    heard: entry.heard,
  }));

export const pendingOf = (value: unknown): PendingVerification[] =>
  Array.isArray(value)
    ? value.map((entry: Record<string, unknown>) => ({
        fuelingId: String(entry.fueling_id),
        fueledAt: String(entry.fueled_at),
        heard: entry.heard === true,
      }))
    : [];

/** The tracking item as committed at `stored`'s version (the state packed: vehicle-tracking-packing.ts). */
export const toTrackingItem = (stored: VehicleTracking) => ({
  ...trackingKey(stored.fleetId, stored.vehicleId),
  state: packState(stored),
  session_status: stored.session?.status ?? null,
  last_seen_ms: stored.lastSeenMs,
  offline: stored.offline,
  version: stored.version,
  ...(stored.pendingVerifications?.length
    ? { pending_verifications: storedPending(stored.pendingVerifications) }
    : {}),
});

/** The vehicle's tracking as its stored item holds it. */
export function fromTrackingItem(
  fleetId: string,
  vehicleId: string,
  item: Record<string, unknown>,
): VehicleTracking {
  const { tracker, session, outbox, shownStops } = unpackState(item);
  return {
    fleetId,
    vehicleId,
    tracker,
    session,
    shownStops: shownStops ?? [],
    lastSeenMs:
      item.last_seen_ms === null || item.last_seen_ms === undefined ? null : Number(item.last_seen_ms),
    offline: item.offline === true,
    outbox,
    // Absent when none wait, as `save` stores it.
    ...(item.pending_verifications ? { pendingVerifications: pendingOf(item.pending_verifications) } : {}),
    version: Number(item.version ?? 0),
  };
}
