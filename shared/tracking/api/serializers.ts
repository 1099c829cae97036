import { roundCoordinate, roundToTenth } from '#shared/kernel/rounding.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { freshnessOf } from '../domain/freshness.ts';
import type { LatestPosition } from '../domain/positions.ts';
import { mphFromKmh } from '../domain/speed.ts';

/**
 * GET /v1/vehicles/{id}/location. Freshness and age are judged at `nowMs` (when read), so a truck
 * that went silent shows it without anything being rewritten.
 */
export function latestLocationResource(vehicleId: string, position: LatestPosition, nowMs: number) {
  return {
    vehicle_id: vehicleId,
    latitude: roundCoordinate(position.latitude),
    longitude: roundCoordinate(position.longitude),
    recorded_at: position.recordedAt,
    received_at: formatTimestamp(position.receivedAtMs),
    fuel_level_percent: position.fuelLevelPercent === null ? null : roundToTenth(position.fuelLevelPercent),
    // Stored in km/h (docs/units-and-numbers.md#units), answered in mph like every speed the API shows.
    speed_mph: position.speedKmh === null ? null : mphFromKmh(position.speedKmh),
    heading_degrees: position.headingDegrees === null ? null : roundToTenth(position.headingDegrees),
    driver_ref: position.driverRef,
    address: position.address,
    freshness: freshnessOf(position.recordedAtMs, nowMs),
    age_seconds: Math.max(0, Math.round((nowMs - position.recordedAtMs) / 1000)),
  };
}
