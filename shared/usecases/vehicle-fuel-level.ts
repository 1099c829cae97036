import { type FuelLevel, fuelLevelNow } from '../domain/telematics/fuel-level.ts';
import type { LatestPosition } from '../domain/telematics/positions.ts';
import type { Vehicle } from '../domain/vehicle.ts';
import type { VehicleTrackingStore } from '../store/vehicle-tracking.ts';

export interface VehicleFuelLevelDeps {
  /** The detection state: the last reported level and the miles driven since. */
  tracking: Pick<VehicleTrackingStore, 'get'>;
}

/**
 * A vehicle's fuel level at its latest position, for a trip or a route planned now: reported,
 * projected from the last report, or the fleet's assumed departure level (fuel-level.ts). The
 * caller has checked the tank size and mpg, without which the level may be unknown.
 */
export async function vehicleFuelLevel(
  deps: VehicleFuelLevelDeps,
  fleetId: string,
  vehicle: Pick<Vehicle, 'id' | 'tankSizeGallons' | 'estimatedMpg'>,
  latest: LatestPosition | null,
  assumedDepartureFuelPercent: number,
  nowMs: number,
): Promise<FuelLevel> {
  const { tracker } = await deps.tracking.get(fleetId, vehicle.id, { consistent: false });
  const level = fuelLevelNow(
    tracker,
    latest ? [latest] : [],
    { tankGallons: vehicle.tankSizeGallons, mpg: vehicle.estimatedMpg },
    { percent: assumedDepartureFuelPercent, atMs: nowMs, odometerMiles: null },
  );
  if (level === null) throw new Error(`vehicle ${vehicle.id}: no fuel level without tank size and mpg`);
  return level;
}
