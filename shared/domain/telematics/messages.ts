/**
 * What ingest puts on the vehicle-updates queue: which vehicle changed.
 * The guidance worker recomputes from stored state, so a message carries no position and a
 * redelivered or reordered one changes nothing.
 */
export interface VehicleUpdateMessage {
  fleetId: string;
  vehicleId: string;
  /**
   * The version of the vehicle's position item the request wrote: the worker reads the item
   * eventually consistent (half the read units) and again, consistently, when it got an older one.
   * Absent (nothing written, or an older sender): one consistent read.
   */
  positionVersion?: number;
}
