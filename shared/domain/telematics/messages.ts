/**
 * What ingest puts on the vehicle-updates queue: only which vehicle changed.
 * The guidance worker recomputes from stored state, so a message carries no position and a
 * redelivered or reordered one changes nothing.
 */
export interface VehicleUpdateMessage {
  fleetId: string;
  vehicleId: string;
}
