import type { Fleet } from '../domain/fleet.ts';
import { type GuidanceSession, phaseAsRead } from '../domain/guidance/session.ts';
import { roundToTenth } from '../domain/rounding.ts';
import { type ChainDiscounts, isPriceStale, type Station, stationPrice } from '../domain/stations/station.ts';
import { freshnessOf } from '../domain/telematics/freshness.ts';
import type { Vehicle } from '../domain/vehicle.ts';
import type { WebhookDelivery } from '../domain/webhooks/delivery.ts';
import type { WebhookEndpoint } from '../domain/webhooks/endpoint.ts';
import { formatTimestamp } from '../platform/time.ts';

/**
 * Stored records → public JSON. Member order here is the order on the wire; create responses and
 * GETs both come through these functions, which is what makes them agree byte for byte.
 */
export function fleetResource(fleet: Fleet) {
  return {
    id: fleet.id,
    name: fleet.name,
    external_ref: fleet.externalRef,
    contact_email: fleet.contactEmail,
    timezone: fleet.timezone,
    status: fleet.status,
    created_at: fleet.createdAt,
    updated_at: fleet.updatedAt,
  };
}

export function vehicleResource(vehicle: Vehicle) {
  return {
    id: vehicle.id,
    external_ref: vehicle.externalRef,
    linked_external_refs: vehicle.linkedExternalRefs,
    name: vehicle.name,
    vin: vehicle.vin,
    tank_size_gallons: vehicle.tankSizeGallons,
    estimated_mpg: vehicle.estimatedMpg,
    license_plate: vehicle.licensePlate,
    status: vehicle.status,
    created_at: vehicle.createdAt,
    updated_at: vehicle.updatedAt,
  };
}

export function stationResource(station: Station, discounts: ChainDiscounts, nowMs: number) {
  const price = stationPrice(station, discounts);
  return {
    id: station.id,
    name: station.name,
    chain: station.chain,
    latitude: station.latitude,
    longitude: station.longitude,
    address: station.address,
    state: station.state,
    amenities: station.amenities,
    fuels: station.fuels,
    diesel_price_usd_per_gallon: price.price,
    discount_usd_per_gallon: price.discount,
    net_price_usd_per_gallon: price.net,
    price_updated_at: formatTimestamp(station.priceUpdatedAtMs),
    price_is_stale: isPriceStale(station, nowMs),
  };
}

/** Miles as shown to drivers and integrators: a tenth of a mile. */
export const roundMiles = roundToTenth;

/** Never includes a secret: those appear only in the create and rotate responses. */
export function webhookResource(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    event_types: endpoint.eventTypes,
    description: endpoint.description,
    status: endpoint.status,
    disabled_reason: endpoint.disabledReason,
    level: endpoint.owner.kind,
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
  };
}

export function deliveryResource(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    endpoint_id: delivery.endpointId,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    last_duration_ms: delivery.lastDurationMs,
    is_replay: delivery.isReplay,
    created_at: delivery.createdAt,
    last_attempt_at: delivery.lastAttemptAt,
    next_retry_at: delivery.nextRetryAt,
    completed_at: delivery.completedAt,
  };
}

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
      latitude: session.destination.latitude,
      longitude: session.destination.longitude,
      name: session.destination.name,
    },
    min_arrival_fuel_percent: session.minArrivalFuelPercent,
    stops: session.stops.map((stop) => ({
      id: stop.id,
      station: {
        id: stop.stationId,
        name: stop.name,
        chain: stop.chain,
        latitude: stop.latitude,
        longitude: stop.longitude,
        address: stop.address,
      },
      miles_ahead: stop.milesAhead,
      detour_miles: stop.detourMiles,
      gallons_to_buy: stop.gallonsToBuy,
      price_usd_per_gallon: stop.price,
      discount_usd_per_gallon: stop.discount,
      net_price_usd_per_gallon: stop.netPrice,
      price_is_stale: stop.priceIsStale,
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
    remaining_miles: session.remainingMiles,
    projected_arrival_fuel_percent: session.projectedArrivalFuelPercent,
    position: session.position && {
      latitude: session.position.latitude,
      longitude: session.position.longitude,
      recorded_at: formatTimestamp(session.position.recordedAtMs),
      freshness: freshnessOf(session.position.recordedAtMs, nowMs),
    },
    fuel: session.fuel && {
      level_percent: session.fuel.percent,
      source: session.fuel.source,
      reported_at: formatTimestamp(session.fuel.reportedAtMs),
      freshness: freshnessOf(session.fuel.reportedAtMs, nowMs),
    },
    revision: session.revision,
    created_at: formatTimestamp(session.createdAtMs),
    updated_at: formatTimestamp(session.updatedAtMs),
    plan_updated_at: session.planUpdatedAtMs === null ? null : formatTimestamp(session.planUpdatedAtMs),
  };
}
