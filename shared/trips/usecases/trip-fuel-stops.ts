import type { FleetStore } from '#shared/fleets/store/fleets.ts';
import { fuelSettingsFor } from '#shared/fleets/usecases/fleets.ts';
import { truckFor } from '#shared/fleets/usecases/truck-profiles.ts';
import { treatmentFor } from '#shared/fuel-tax/domain/treatment.ts';
import { projectOntoRoute } from '#shared/geo/route-projection.ts';
import { GUIDANCE_POLICY } from '#shared/guidance/domain/policy.ts';
import { lineOf } from '#shared/guidance/usecases/guidance-plan.ts';
import { newId } from '#shared/kernel/ids.ts';
import { roundToTenth } from '#shared/kernel/rounding.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { type VehicleFuelLevelDeps, vehicleFuelLevel } from '#shared/tracking/usecases/vehicle-fuel-level.ts';
import { planTruckRoute, type TruckRouteDeps } from '#shared/truck-routes/usecases/truck-routes.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import { fuelStops, inRouteOrder, type Trip, type TripFuelPlan, type TripStop } from '../domain/trip.ts';

export interface TripPlanningDeps
  extends Pick<TruckRouteDeps, 'router' | 'catalog' | 'fuelTaxes' | 'now'>,
    VehicleFuelLevelDeps {
  fleets: Pick<FleetStore, 'get'>;
}

/**
 * The trip's route (origin → destination, as the routing engine answers it for the trip's truck)
 * without fuel stops: what a trip without auto_optimize shows, and what a PATCH that moves an end
 * recomputes.
 */
export async function routeTrip(
  deps: Pick<TripPlanningDeps, 'router' | 'fleets'>,
  trip: Pick<Trip, 'fleetId' | 'origin' | 'destination'>,
  vehicle: Pick<Vehicle, 'truckProfile'> | null,
) {
  const truck = truckFor(vehicle, await deps.fleets.get(trip.fleetId));
  const route = await deps.router.route({
    origin: trip.origin,
    destination: trip.destination,
    truck: truck.profile,
  });
  return {
    distanceMiles: roundToTenth(route.distanceMiles),
    durationMinutes: Math.round(route.durationMinutes),
    polyline: route.polyline,
    truck,
  };
}

/**
 * The trip's fuel stops, planned by the route planner of POST /v1/routes (same corridor, fuel plan,
 * price basis, counterfactual comparison): a planned trip from its origin with `start_fuel_percent` (else the
 * vehicle's level now); an active one from the vehicle's latest position and level. The level is
 * reported, projected or assumed by the rule guidance uses (fuel-level.ts). Returns the
 * trip with its fuel stops replaced and its fuel plan, route and stop order brought up to date.
 */
export async function withFuelStops(
  deps: TripPlanningDeps,
  trip: Trip,
  vehicle: Vehicle,
  nowMs: number,
): Promise<Trip> {
  if (vehicle.tankSizeGallons === null || vehicle.estimatedMpg === null) {
    throw new ApiError(
      'insufficient_fuel_data',
      `Vehicle ${vehicle.id} has no tank_size_gallons or estimated_mpg.`,
      {
        hint: `set tank_size_gallons and estimated_mpg via PATCH /v1/vehicles/${vehicle.id}`,
      },
    );
  }
  const {
    minArrivalFuelPercent,
    assumedDepartureFuelPercent,
    fleetTaxTreatment,
    fleetTruckProfile,
    fuelProgram,
  } = await fuelSettingsFor(deps, trip.fleetId, trip.minArrivalFuelPercent ?? undefined);
  const now = await vehicleFuelLevel(deps, trip.fleetId, vehicle, assumedDepartureFuelPercent, nowMs);
  const { latest } = now;
  const fromPosition = trip.status === 'active' && latest !== null;
  // A planned trip's start_fuel_percent is the dispatcher's own figure; otherwise the vehicle's
  // level now: reported, projected from its last report, or the fleet's assumption.
  const level =
    !fromPosition && trip.startFuelPercent !== null
      ? { percent: trip.startFuelPercent, source: 'reported' as const, asOfMs: nowMs }
      : now.fuel;
  const fuelPercent = level.percent;
  const origin = fromPosition
    ? { latitude: latest.latitude, longitude: latest.longitude }
    : {
        latitude: trip.origin.latitude,
        longitude: trip.origin.longitude,
        name: trip.origin.name ?? undefined,
      };
  const truck = truckFor(vehicle, { truckProfile: fleetTruckProfile });
  const planned = await planTruckRoute(deps, {
    trip: {
      vehicleId: vehicle.id,
      origin,
      // An active truck's route goes on the way it is driving.
      headingDegrees: fromPosition ? (latest.travelHeadingDegrees ?? null) : null,
      tankGallons: vehicle.tankSizeGallons,
      mpg: vehicle.estimatedMpg,
      fuelPercent,
      fuelLevelSource: level.source,
      fuelLevelAsOfMs: level.asOfMs,
    },
    destination: { ...trip.destination, name: trip.destination.name ?? undefined },
    minArrivalFuelPercent,
    // Guidance's corridor: the trip's fuel stops become its recommended stops once the trip starts.
    corridorWidthMiles: GUIDANCE_POLICY.corridorWidthMiles,
    taxTreatment: treatmentFor({ fuelTaxTreatment: fleetTaxTreatment }, vehicle),
    truck,
    program: fuelProgram,
  });
  const route =
    fromPosition && trip.route
      ? trip.route
      : {
          distanceMiles: planned.distance_miles,
          durationMinutes: planned.duration_minutes,
          polyline: planned.polyline,
          truck,
        };
  // Miles along the trip's own route: from an active truck's position the plan counts from there.
  const line = lineOf(route);
  const offset = fromPosition ? projectOntoRoute(line, origin).milesAlongRoute : 0;
  const fuel: TripStop[] = planned.plan.stops.map((stop) => ({
    id: newId('tripStop', nowMs),
    type: 'fuel',
    name: stop.station.name,
    latitude: stop.station.latitude,
    longitude: stop.station.longitude,
    plannedArrivalAtMs: null,
    arrivedAtMs: null,
    departedAtMs: null,
    fuel: {
      station: stop.station,
      milesAlongRoute: roundToTenth(offset + stop.miles_along_route),
      detourMiles: stop.detour_miles,
      gallonsToBuy: stop.gallons_to_buy,
      price: stop.price_usd_per_gallon,
      discount: stop.discount_usd_per_gallon,
      netPrice: stop.net_price_usd_per_gallon,
      state: stop.state,
      stateTax: stop.state_tax_usd_per_gallon,
      effectivePrice: stop.effective_price_usd_per_gallon,
      counterfactual: stop.counterfactual && {
        pumpPrice: stop.counterfactual.pump_price_usd_per_gallon,
        netPrice: stop.counterfactual.net_price_usd_per_gallon,
        stationCount: stop.counterfactual.station_count,
      },
      priceIsStale: stop.price_is_stale,
      inFuelProgram: stop.in_fuel_program,
      reason: stop.reason,
    },
  }));
  const fuelPlan: TripFuelPlan = {
    status: planned.plan.status,
    reason: planned.plan.reason,
    fuelProgramShortfall: planned.plan.fuel_program_shortfall,
    startFuelPercent: fuelPercent,
    fuelLevelSource: level.source,
    fuelLevelAsOfMs: level.asOfMs,
    minArrivalFuelPercent,
    totalGallons: planned.plan.total_gallons,
    totalCostUsd: planned.plan.total_cost_usd,
    projectedArrivalFuelPercent: planned.plan.arrival_fuel_percent,
    taxTreatment: planned.plan.fuel_tax_treatment,
    // As the route answers them: the trip's comparison is the route's, like for like.
    baseline: planned.baseline,
    savings: planned.savings,
    optimizedAtMs: nowMs,
  };
  const next = { ...trip, route, fuelPlan };
  return { ...next, stops: ordered(next, fuel) };
}

/** The trip's stops in route order, with `fuel` as its fuel stops (the dispatcher's kept as they are). */
export function ordered(
  trip: Pick<Trip, 'stops' | 'route'>,
  fuel: readonly TripStop[] = fuelStops(trip),
): TripStop[] {
  const dispatch = trip.stops.filter((stop) => stop.type !== 'fuel');
  const line = trip.route ? lineOf(trip.route) : null;
  return inRouteOrder(dispatch, fuel, (stop) => (line ? projectOntoRoute(line, stop).milesAlongRoute : 0));
}
