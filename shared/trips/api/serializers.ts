import { effectiveTruckProfileResource } from '#shared/fleets/api/truck-profile-serializers.ts';
import { roundCoordinate } from '#shared/kernel/rounding.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { baselineResource, purchaseCounterfactualResource } from '#shared/truck-routes/api/serializers.ts';
import type { Trip, TripPlace, TripStop } from '../domain/trip.ts';

const at = (ms: number | null) => (ms === null ? null : formatTimestamp(ms));

// Built member by member, coordinates as the API gives them (5 decimals).
const place = (p: TripPlace) => ({
  latitude: roundCoordinate(p.latitude),
  longitude: roundCoordinate(p.longitude),
  name: p.name,
});

/** A trip stop as GET shows it; `index` is its place in route order. */
export function tripStopResource(stop: TripStop, index: number) {
  const { fuel } = stop;
  return {
    id: stop.id,
    sequence: index + 1,
    type: stop.type,
    system_managed: stop.type === 'fuel',
    name: stop.name,
    latitude: roundCoordinate(stop.latitude),
    longitude: roundCoordinate(stop.longitude),
    planned_arrival_at: at(stop.plannedArrivalAtMs),
    arrived_at: at(stop.arrivedAtMs),
    departed_at: at(stop.departedAtMs),
    fuel: fuel
      ? {
          station: {
            id: fuel.station.id,
            name: fuel.station.name,
            chain: fuel.station.chain,
            latitude: roundCoordinate(fuel.station.latitude),
            longitude: roundCoordinate(fuel.station.longitude),
            address: fuel.station.address,
          },
          miles_along_route: fuel.milesAlongRoute,
          detour_miles: fuel.detourMiles,
          gallons_to_buy: fuel.gallonsToBuy,
          price_usd_per_gallon: fuel.price,
          discount_usd_per_gallon: fuel.discount,
          net_price_usd_per_gallon: fuel.netPrice,
          // Stops planned before the price basis was kept were priced at the pump.
          state: fuel.state ?? null,
          state_tax_usd_per_gallon: fuel.stateTax ?? null,
          effective_price_usd_per_gallon: fuel.effectivePrice ?? fuel.netPrice,
          counterfactual: fuel.counterfactual ? purchaseCounterfactualResource(fuel.counterfactual) : null,
          in_fuel_program: fuel.inFuelProgram ?? null,
          reason: fuel.reason,
        }
      : null,
  };
}

/**
 * A trip as the API shows it. `polyline`: GET /v1/trips/{id} always includes it (and create, which
 * must agree with it byte for byte), lists only with include=polyline.
 */
/** The truck the trip's route was computed for; null without a route or on one stored before. */
function truckOf(route: Trip['route']) {
  if (!route?.truck) return { truck_profile: null, truck_profile_sources: null };
  return effectiveTruckProfileResource(route.truck.profile, route.truck.sources);
}

export function tripResource(trip: Trip, options: { polyline: boolean } = { polyline: true }) {
  const plan = trip.fuelPlan;
  return {
    id: trip.id,
    vehicle_id: trip.vehicleId,
    external_ref: trip.externalRef,
    reference: trip.reference,
    status: trip.status,
    auto_optimize: trip.autoOptimize,
    origin: place(trip.origin),
    destination: place(trip.destination),
    planned_start_at: formatTimestamp(trip.plannedStartAtMs),
    planned_end_at: at(trip.plannedEndAtMs),
    started_at: at(trip.startedAtMs),
    completed_at: at(trip.completedAtMs),
    cancelled_at: at(trip.cancelledAtMs),
    cancel_reason: trip.cancelReason,
    stops: trip.stops.map(tripStopResource),
    distance_miles: trip.route?.distanceMiles ?? null,
    duration_minutes: trip.route?.durationMinutes ?? null,
    ...(options.polyline ? { polyline: trip.route?.polyline ?? '' } : {}),
    ...truckOf(trip.route),
    fuel_plan: plan
      ? {
          status: plan.status,
          reason: plan.reason,
          fuel_program_shortfall: plan.fuelProgramShortfall ?? null,
          start_fuel_percent: plan.startFuelPercent,
          // Plans stored before the origin was kept were made from a reported level only.
          fuel_level_source: plan.fuelLevelSource ?? 'reported',
          fuel_level_as_of: formatTimestamp(plan.fuelLevelAsOfMs ?? plan.optimizedAtMs),
          min_arrival_fuel_percent: plan.minArrivalFuelPercent,
          total_gallons: plan.totalGallons,
          total_cost_usd: plan.totalCostUsd,
          projected_arrival_fuel_percent: plan.projectedArrivalFuelPercent,
          fuel_tax_treatment: plan.taxTreatment ?? 'pump',
          ...comparisonOf(plan),
          optimized_at: formatTimestamp(plan.optimizedAtMs),
        }
      : null,
    guidance_id: trip.guidanceId,
    created_at: formatTimestamp(trip.createdAtMs),
    updated_at: formatTimestamp(trip.updatedAtMs),
  };
}

/**
 * The plan's comparison as stored from the route planner, replayed as it was: a plan optimized
 * against the retired fill-to-full baseline keeps showing that baseline and its like-for-like
 * saving (both published with every v1 member). `baseline` is an object on every plan; one stored
 * without it (an infeasible plan) shows the infeasible counterfactual.
 */
function comparisonOf(plan: NonNullable<Trip['fuelPlan']>) {
  const infeasible = () =>
    baselineResource(
      {
        counterfactual: null,
        taxTreatment: plan.taxTreatment ?? 'pump',
        stops: [],
        arrivalFuelGallons: null,
      },
      1,
    );
  return { baseline: plan.baseline ?? infeasible(), savings: plan.savings };
}
