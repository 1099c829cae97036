import { GUIDANCE_POLICY } from '../domain/guidance/policy.ts';
import { roundToTenth } from '../domain/rounding.ts';
import {
  fuelStops,
  inRouteOrder,
  type Trip,
  type TripFuelPlan,
  type TripStop,
} from '../domain/trips/trip.ts';
import type { Vehicle } from '../domain/vehicle.ts';
import { projectOntoRoute } from '../geo/route-projection.ts';
import { ApiError } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import type { FleetStore } from '../store/fleets.ts';
import type { VehiclePositionStore } from '../store/vehicle-positions.ts';
import { minArrivalFuelPercentFor } from './fleets.ts';
import { lineOf } from './guidance-plan.ts';
import { planTruckRoute, type RouteDeps } from './routes.ts';

export interface TripPlanningDeps extends Pick<RouteDeps, 'router' | 'catalog' | 'discounts' | 'now'> {
  positions: Pick<VehiclePositionStore, 'latest'>;
  fleets: Pick<FleetStore, 'get'>;
}

/**
 * The trip's route (origin → destination, as the routing engine answers it) without fuel stops:
 * what a trip without auto_optimize shows, and what a PATCH that moves an end recomputes.
 */
export async function routeTrip(
  deps: Pick<TripPlanningDeps, 'router'>,
  trip: Pick<Trip, 'origin' | 'destination'>,
) {
  const route = await deps.router.route({ origin: trip.origin, destination: trip.destination });
  return {
    distanceMiles: roundToTenth(route.distanceMiles),
    durationMinutes: Math.round(route.durationMinutes),
    polyline: route.polyline,
  };
}

/**
 * The trip's fuel stops, planned by the route planner of POST /v1/routes (same corridor, fuel plan,
 * baseline comparison): a planned trip from its origin with `start_fuel_percent` (else the
 * vehicle's latest level); an active one from the vehicle's latest position and level. Returns the
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
  const latest = await deps.positions.latest(trip.fleetId, vehicle.id);
  const fromPosition = trip.status === 'active' && latest !== null;
  const fuelPercent = fromPosition
    ? (latest.fuelLevelPercent ?? null)
    : (trip.startFuelPercent ?? latest?.fuelLevelPercent ?? null);
  if (fuelPercent === null) {
    throw new ApiError('insufficient_fuel_data', `Vehicle ${vehicle.id} has not reported a fuel level.`, {
      hint: 'send start_fuel_percent, or fuel_level_percent with the breadcrumbs (POST /v1/locations)',
    });
  }
  const minArrivalFuelPercent = await minArrivalFuelPercentFor(
    deps,
    trip.fleetId,
    trip.minArrivalFuelPercent ?? undefined,
  );
  const origin = fromPosition
    ? { latitude: latest.latitude, longitude: latest.longitude }
    : {
        latitude: trip.origin.latitude,
        longitude: trip.origin.longitude,
        name: trip.origin.name ?? undefined,
      };
  const planned = await planTruckRoute(deps, trip.fleetId, {
    trip: {
      vehicleId: vehicle.id,
      origin,
      // An active truck's route goes on the way it is driving.
      headingDegrees: fromPosition ? (latest.travelHeadingDegrees ?? null) : null,
      tankGallons: vehicle.tankSizeGallons,
      mpg: vehicle.estimatedMpg,
      fuelPercent,
    },
    destination: { ...trip.destination, name: trip.destination.name ?? undefined },
    minArrivalFuelPercent,
    // Guidance's corridor: the trip's fuel stops become its recommended stops once the trip starts.
    corridorWidthMiles: GUIDANCE_POLICY.corridorWidthMiles,
  });
  const route =
    fromPosition && trip.route
      ? trip.route
      : {
          distanceMiles: planned.distance_miles,
          durationMinutes: planned.duration_minutes,
          polyline: planned.polyline,
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
      priceIsStale: stop.price_is_stale,
      reason: stop.reason,
    },
  }));
  const fuelPlan: TripFuelPlan = {
    status: planned.plan.status,
    reason: planned.plan.reason,
    startFuelPercent: fuelPercent,
    minArrivalFuelPercent,
    totalGallons: planned.plan.total_gallons,
    totalCostUsd: planned.plan.total_cost_usd,
    projectedArrivalFuelPercent: planned.plan.arrival_fuel_percent,
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
