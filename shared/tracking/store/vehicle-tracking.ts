import type { PendingVerification } from '#shared/fuelings/domain/verification-recheck.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import type { VehicleTracking } from '../domain/vehicle-tracking.ts';
import { createVehicleTrackingCycle } from './vehicle-tracking-cycle.ts';
import { createVehicleTrackingPending } from './vehicle-tracking-pending.ts';
import { createVehicleTrackingSweep, type SilentVehicle } from './vehicle-tracking-sweep.ts';

export { heartbeatKey, trackingKey } from './vehicle-tracking-items.ts';
export type { SilentVehicle } from './vehicle-tracking-sweep.ts';

/**
 * A vehicle's tracking (the item: vehicle-tracking-items.ts, its packed state:
 * vehicle-tracking-packing.ts), one module per access pattern: the guidance worker's cycle
 * (vehicle-tracking-cycle.ts), the offline sweep (vehicle-tracking-sweep.ts) and a reported
 * purchase's pending verification (vehicle-tracking-pending.ts).
 */
export interface VehicleTrackingStore {
  /** Strongly consistent unless `consistent: false` (for a reader whose write is conditional on the version). */
  get(fleetId: string, vehicleId: string, options?: { consistent?: boolean }): Promise<VehicleTracking>;
  /**
   * Writes the item (with its outbox) if nobody moved the version since it was read; false when
   * somebody did: read again and redo the change. Returns the stored version on success.
   */
  save(tracking: VehicleTracking): Promise<VehicleTracking | null>;
  /**
   * `save` for the offline sweep: in the same transaction, takes the vehicle's latest-position item
   * out of the online index, provided it is still at ring version `positionVersion` (null: the
   * vehicle has no position item). Null when either moved since read: a breadcrumb came.
   */
  saveOffline(tracking: VehicleTracking, positionVersion: number | null): Promise<VehicleTracking | null>;
  /** Clears a carried-out outbox, unless the item moved on meanwhile (then the next writer owns it). */
  clearOutbox(tracking: VehicleTracking): Promise<void>;
  /**
   * Adds a reported purchase to the vehicle's pending verifications (the newest
   * RECHECK_POLICY.maxPending kept), bumping the version so a worker cycle that read the item
   * before redoes its change from this one; creates the item when the vehicle has none yet.
   */
  addPendingVerification(
    fleetId: string,
    vehicleId: string,
    purchase: Pick<PendingVerification, 'fuelingId' | 'fueledAt'>,
  ): Promise<void>;
  /**
   * Vehicles of one index shard last heard from before `beforeMs` by the online index or a visit
   * marker, oldest first per source. The times are coarse: the sweep checks the real ones.
   */
  silentSince(shard: number, beforeMs: number): Promise<SilentVehicle[]>;
  /**
   * Removes the vehicle's visit marker, but only while its tracking item is still as read (this
   * version, or absent): a change committed meanwhile may need it.
   */
  removeMarker(tracking: VehicleTracking): Promise<void>;
  /**
   * Takes the vehicle's latest-position item out of the online index, but only while the tracking
   * item is as read and the position item at ring version `positionVersion`: a worker cycle that
   * just brought the vehicle online, or a breadcrumb that just came, keeps it in. True when it did.
   */
  leaveOnlineIndex(tracking: VehicleTracking, positionVersion: number): Promise<boolean>;
}

export function createVehicleTrackingStore(client: DocumentClient, tableName: string): VehicleTrackingStore {
  return {
    ...createVehicleTrackingCycle(client, tableName),
    ...createVehicleTrackingSweep(client, tableName),
    ...createVehicleTrackingPending(client, tableName),
  };
}
