import { freshnessOf } from '../../domain/telematics/freshness.ts';
import type { LatestPosition } from '../../domain/telematics/positions.ts';
import { formatTimestamp } from '../../platform/time.ts';

/**
 * GET /v1/vehicles/{id}/location. Freshness and age are judged at `nowMs` (when read), so a truck
 * that went silent shows it without anything being rewritten.
 */
export function latestLocationResource(vehicleId: string, position: LatestPosition, nowMs: number) {
  return {
    vehicle_id: vehicleId,
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
  };
}
