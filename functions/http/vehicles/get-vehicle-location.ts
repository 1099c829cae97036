import { routes } from '../../../shared/api/routes.ts';
import { freshnessOf } from '../../../shared/domain/telematics/freshness.ts';
import { ApiError } from '../../../shared/platform/errors.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { formatTimestamp } from '../../../shared/platform/time.ts';
import { positionRepositories } from '../../../shared/store/position-repositories.ts';
import { findVehicle } from '../../../shared/usecases/vehicles.ts';

export const handler = createHttpHandler(routes.getVehicleLocation, async ({ params }, context) => {
  const fleetId = actingFleetId(context);
  const { vehicles, positions } = positionRepositories();
  const vehicle = await findVehicle({ vehicles }, fleetId, params.id);
  const position = await positions.latest(fleetId, vehicle.id);
  if (!position)
    throw new ApiError('resource_not_found', `Vehicle ${vehicle.id} has not reported a position yet.`);
  const nowMs = context.clock.now();
  return ok({
    vehicle_id: vehicle.id,
    latitude: position.latitude,
    longitude: position.longitude,
    recorded_at: position.recordedAt,
    received_at: formatTimestamp(position.receivedAtMs),
    fuel_level_percent: position.fuelLevelPercent,
    speed_kmh: position.speedKmh,
    heading_degrees: position.headingDegrees,
    driver_ref: position.driverRef,
    address: position.address,
    freshness: freshnessOf(position.recordedAtMs, nowMs),
    age_seconds: Math.max(0, Math.round((nowMs - position.recordedAtMs) / 1000)),
  });
});
