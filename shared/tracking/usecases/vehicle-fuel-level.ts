import type { GuidanceSession } from '#shared/guidance/domain/session.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import {
  type FuelAssumption,
  type FuelLevel,
  fuelLevelNow,
  type LevelBreadcrumb,
} from '../domain/fuel-level.ts';
import type { LatestPosition, RecentPositions } from '../domain/positions.ts';
import type { TrackerState } from '../domain/types.ts';
import type { VehiclePositionStore } from '../store/vehicle-positions.ts';
import type { VehicleTrackingStore } from '../store/vehicle-tracking.ts';

export interface VehicleFuelLevelDeps {
  /** The latest position with the breadcrumbs the worker may not have consumed yet. */
  positions: Pick<VehiclePositionStore, 'recent'>;
  /** The detection state: the last reported level and the miles driven since. */
  tracking: Pick<VehicleTrackingStore, 'get'>;
}

/**
 * The breadcrumbs detection has not consumed: the position item's ring after its last fix. The
 * worker commits a vehicle without guidance only every few breadcrumbs (commit-policy.ts), so the
 * stored state may lag; a ring already flushed past it leaves a gap the projection crosses in a
 * straight line.
 */
export function unconsumedBreadcrumbs(
  positions: RecentPositions | null,
  tracker: Pick<TrackerState, 'processedThroughMs'>,
): LevelBreadcrumb[] {
  if (positions === null) return [];
  const after = tracker.processedThroughMs ?? Number.NEGATIVE_INFINITY;
  const { latest, recent } = positions;
  return [...recent, latest].filter((crumb) => crumb.recordedAtMs > after);
}

/**
 * The assumption of the vehicle's active guidance session once a plan anchored it: the truck has
 * burned fuel since (or filled, when a fill re-anchored it), so a trip or a route planned now works
 * from the level guidance shows the driver, not from a fresh assumption where the truck is now.
 */
export function sessionAssumption(session: GuidanceSession | null): FuelAssumption | null {
  const assumption = session?.status === 'active' ? session.fuelAssumption : undefined;
  return assumption && assumption.odometerMiles !== null ? assumption : null;
}

/**
 * A vehicle's latest position and its fuel level there, for a trip or a route planned now:
 * reported, projected from the last report, the active guidance session's anchored assumption
 * burned down by the miles since, or the fleet's assumed departure level (fuel-level.ts).
 * The caller has checked the tank size and mpg, without which the level may be unknown.
 */
export async function vehicleFuelLevel(
  deps: VehicleFuelLevelDeps,
  fleetId: string,
  vehicle: Pick<Vehicle, 'id' | 'tankSizeGallons' | 'estimatedMpg'>,
  assumedDepartureFuelPercent: number,
  nowMs: number,
): Promise<{ latest: LatestPosition | null; fuel: FuelLevel }> {
  const [positions, { tracker, session }] = await Promise.all([
    deps.positions.recent(fleetId, vehicle.id),
    deps.tracking.get(fleetId, vehicle.id, { consistent: false }),
  ]);
  const fuel = fuelLevelNow(
    tracker,
    unconsumedBreadcrumbs(positions, tracker),
    { tankGallons: vehicle.tankSizeGallons, mpg: vehicle.estimatedMpg },
    sessionAssumption(session) ?? { percent: assumedDepartureFuelPercent, atMs: nowMs, odometerMiles: null },
  );
  if (fuel === null) throw new Error(`vehicle ${vehicle.id}: no fuel level without tank size and mpg`);
  return { latest: positions?.latest ?? null, fuel };
}
