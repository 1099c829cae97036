import { roundCoordinate, roundToTenth } from '#shared/kernel/rounding.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { freshnessOf } from '#shared/tracking/domain/freshness.ts';
import { fuelProgramShortfallResource } from '#shared/truck-routes/api/serializers.ts';
import {
  type FuelReading,
  fuelLevelSourceOf,
  type GuidanceSession,
  phaseAsRead,
  planStatusOf,
} from '../domain/session.ts';

/**
 * A guidance session as the API shows it. Freshness and the data_stale phase are judged at `nowMs`
 * (when read): a session nobody recomputes because the truck went silent still says so.
 */
export function guidanceResource(session: GuidanceSession, nowMs: number) {
  return {
    id: session.id,
    vehicle_id: session.vehicleId,
    status: session.status,
    phase: phaseAsRead(session, nowMs),
    // Built member by member: a stored map comes back from DynamoDB in its own key order.
    destination: {
      latitude: roundCoordinate(session.destination.latitude),
      longitude: roundCoordinate(session.destination.longitude),
      name: session.destination.name,
    },
    min_arrival_fuel_percent: session.minArrivalFuelPercent,
    stops: session.stops.map((stop) => ({
      id: stop.id,
      station: {
        id: stop.stationId,
        name: stop.name,
        chain: stop.chain,
        latitude: roundCoordinate(stop.latitude),
        longitude: roundCoordinate(stop.longitude),
        address: stop.address,
        state: stop.state ?? null,
      },
      miles_ahead: stop.milesAhead,
      detour_miles: stop.detourMiles,
      gallons_to_buy: stop.gallonsToBuy,
      price_usd_per_gallon: stop.price,
      discount_usd_per_gallon: stop.discount,
      net_price_usd_per_gallon: stop.netPrice,
      // Stops recommended before the price basis was kept were priced at the pump.
      state_tax_usd_per_gallon: stop.stateTax ?? null,
      effective_price_usd_per_gallon: stop.effectivePrice ?? stop.netPrice,
      fuel_tax_treatment: stop.taxTreatment ?? 'pump',
      price_is_stale: stop.priceIsStale,
      in_fuel_program: stop.inFuelProgram ?? null,
      reason: stop.reason,
      state: stop.acknowledgedAtMs === null ? 'recommended' : 'acknowledged',
      recommended_at: formatTimestamp(stop.recommendedAtMs),
      acknowledged_at: stop.acknowledgedAtMs === null ? null : formatTimestamp(stop.acknowledgedAtMs),
    })),
    skipped_stops: session.skipped.map((skip) => ({
      stop_id: skip.stopId,
      station_id: skip.stationId,
      name: skip.name,
      reason: skip.reason,
      skipped_at: formatTimestamp(skip.skippedAtMs),
    })),
    plan_reason: session.planReason,
    plan_status: planStatusOf(session),
    fuel_program_shortfall: fuelProgramShortfallResource(session.fuelProgramShortfall ?? null),
    remaining_miles: session.remainingMiles,
    projected_arrival_fuel_percent: session.projectedArrivalFuelPercent,
    position: session.position && {
      latitude: roundCoordinate(session.position.latitude),
      longitude: roundCoordinate(session.position.longitude),
      recorded_at: formatTimestamp(session.position.recordedAtMs),
      freshness: freshnessOf(session.position.recordedAtMs, nowMs),
    },
    fuel: sensorReading(session.fuel, nowMs),
    fuel_level_percent: session.fuel && roundToTenth(session.fuel.percent),
    fuel_level_source: session.fuel && fuelLevelSourceOf(session.fuel),
    fuel_level_as_of: session.fuel && formatTimestamp(fuelLevelAsOf(session.fuel, session.position)),
    revision: session.revision,
    created_at: formatTimestamp(session.createdAtMs),
    updated_at: formatTimestamp(session.updatedAtMs),
    plan_updated_at: session.planUpdatedAtMs === null ? null : formatTimestamp(session.planUpdatedAtMs),
  };
}

/** The tank sensor's reading behind the level: reported, or projected from a report; null when assumed. */
function sensorReading(fuel: FuelReading | null, nowMs: number) {
  if (fuel === null || fuel.reportedAtMs === null) return null;
  return {
    level_percent: roundToTenth(fuel.percent),
    source: fuel.source === 'reported' ? ('reported' as const) : ('estimated' as const),
    reported_at: formatTimestamp(fuel.reportedAtMs),
    freshness: freshnessOf(fuel.reportedAtMs, nowMs),
  };
}

/** The moment the level describes; sessions stored before it was kept: their position's time. */
const fuelLevelAsOf = (fuel: FuelReading, position: GuidanceSession['position']): number =>
  fuel.asOfMs ?? position?.recordedAtMs ?? fuel.reportedAtMs ?? 0;

/** The last plan's status; a session stored before it kept one reads it from its phase. */
