import type { Vehicle } from '../vehicle.ts';
import type { RecentPositions } from './positions.ts';

/**
 * What ingest puts on the vehicle-updates queue: which vehicle changed, and what ingest already
 * read and wrote for it, so the guidance worker need not read them again. The worker recomputes
 * from stored state and these snapshots (each names one version of the position item, which only
 * moves forward), so a redelivered or reordered message changes nothing.
 */
export interface VehicleUpdateMessage {
  fleetId: string;
  vehicleId: string;
  /**
   * The version of the vehicle's position item the request wrote: without `positions`, the worker
   * reads the item eventually consistent (half the read units) and again, consistently, when it got
   * an older one. Absent (nothing written, or another sender): one consistent read.
   */
  positionVersion?: number;
  /** The position item as the request wrote it (latest position, ring, version): no read at all. */
  positions?: RecentPositions;
  /**
   * The vehicle as ingest read it to accept the breadcrumbs (its tank, economy and references): a
   * profile edited since is used from the next message on.
   */
  vehicle?: Vehicle;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A queue body as a message, or null when it names no vehicle. Snapshots that do not look like
 * what ingest sends (another sender, a half-understood older one) are left out: the worker then
 * reads the items instead.
 */
export function parseVehicleUpdateMessage(body: string): VehicleUpdateMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (!isObject(parsed) || typeof parsed.fleetId !== 'string' || typeof parsed.vehicleId !== 'string') {
    return null;
  }
  const { fleetId, vehicleId, positionVersion, positions, vehicle } = parsed;
  const message: VehicleUpdateMessage = { fleetId, vehicleId };
  if (Number.isInteger(positionVersion) && (positionVersion as number) >= 0) {
    message.positionVersion = positionVersion as number;
  }
  if (
    isObject(positions) &&
    isObject(positions.latest) &&
    Array.isArray(positions.recent) &&
    Number.isInteger(positions.version)
  ) {
    message.positions = positions as unknown as RecentPositions;
  }
  if (isObject(vehicle) && vehicle.id === vehicleId && vehicle.fleetId === fleetId) {
    message.vehicle = vehicle as unknown as Vehicle;
  }
  return message;
}
