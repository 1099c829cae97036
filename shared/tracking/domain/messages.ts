import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import {
  type BreadcrumbTuple,
  breadcrumbTuple,
  type HistoryPoint,
  type RecentPositions,
} from './positions.ts';

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

/**
 * A message as it goes on the queue: the ring's breadcrumbs as tuples under `recentTuples`
 * (~45 bytes each instead of ~110 as objects), so a ring of 60 keeps a batch of 10 messages within
 * one 64 KB SQS chunk. A name of its own rather than a new shape of `recent`: a worker that reads only
 * `recent` finds none and reads the position item itself, so it never takes tuples for objects.
 */
export interface VehicleUpdateWire extends Omit<VehicleUpdateMessage, 'positions'> {
  positions?: Omit<RecentPositions, 'recent'> & { recentTuples: BreadcrumbTuple[] };
}

/** The message as the queue carries it (the adapters send this; the worker parses it back). */
export function toVehicleUpdateWire(message: VehicleUpdateMessage): VehicleUpdateWire {
  if (!message.positions) return message as VehicleUpdateWire;
  const { recent, ...rest } = message.positions;
  return {
    ...message,
    positions: {
      ...rest,
      recentTuples: recent.map(breadcrumbTuple),
    },
  };
}

const isNumberOrNull = (value: unknown) => value === null || typeof value === 'number';

/** The tuples as breadcrumbs, or null when one is not a tuple `toVehicleUpdateWire` writes. */
function breadcrumbsOf(tuples: unknown[]): HistoryPoint[] | null {
  const points: HistoryPoint[] = [];
  for (const tuple of tuples) {
    if (!Array.isArray(tuple) || tuple.length !== 5) return null;
    const [recordedAtMs, latitude, longitude, fuelLevelPercent, speedKmh] = tuple as unknown[];
    if (typeof recordedAtMs !== 'number' || typeof latitude !== 'number' || typeof longitude !== 'number')
      return null;
    if (!isNumberOrNull(fuelLevelPercent) || !isNumberOrNull(speedKmh)) return null;
    points.push({
      recordedAtMs,
      latitude,
      longitude,
      fuelLevelPercent: fuelLevelPercent as number | null,
      speedKmh: speedKmh as number | null,
    });
  }
  return points;
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
  if (isObject(positions) && isObject(positions.latest) && Number.isInteger(positions.version)) {
    const { recentTuples, ...rest } = positions;
    // Tuples as ingest sends them; a list of objects under `recent` is read alike.
    const recent = Array.isArray(recentTuples)
      ? breadcrumbsOf(recentTuples)
      : Array.isArray(positions.recent)
        ? positions.recent
        : null;
    if (recent) message.positions = { ...rest, recent } as unknown as RecentPositions;
  }
  if (isObject(vehicle) && vehicle.id === vehicleId && vehicle.fleetId === fleetId) {
    message.vehicle = vehicle as unknown as Vehicle;
  }
  return message;
}
