import { routes } from '../../../shared/api/routes.ts';
import { freshnessOf } from '../../../shared/domain/telematics/freshness.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { formatTimestamp } from '../../../shared/platform/time.ts';
import { latestLocation } from '../../../shared/usecases/locations.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { positionStores } from '../../../shared/wiring/locations.ts';

export const handler = httpHandler(routes.getVehicleLocation, async ({ params }, context) => {
  const { vehicle, position } = await latestLocation(positionStores(), actingFleetId(context), params.id);
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
