import type { ResolvedTruckProfile, TruckProfileSettings } from '#shared/fleets/domain/truck-profile.ts';
import type { FleetStore } from '#shared/fleets/store/fleets.ts';
import { fuelSettingsFor } from '#shared/fleets/usecases/fleets.ts';
import { truckFor } from '#shared/fleets/usecases/truck-profiles.ts';
import {
  acceptedStations,
  DEFAULT_MIN_PURCHASE_GALLONS,
  DEFAULT_RESERVE_FRACTION,
  planWithinProgram,
} from '#shared/fuel-plan/domain/index.ts';
import type { FuelProgram } from '#shared/fuel-programs/domain/program.ts';
import { type FuelTaxTreatment, treatmentFor } from '#shared/fuel-tax/domain/treatment.ts';
import type { FuelTaxRatesProvider } from '#shared/fuel-tax/usecases/fuel-tax-rates.ts';
import { corridorStations } from '#shared/geo/corridor.ts';
import type { RoutingEngine } from '#shared/geo/routing-engine.ts';
import { newId } from '#shared/kernel/ids.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import { chargeStationResults, type StationBudgetDeps } from '#shared/plans/usecases/station-budget.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { fuelCandidates } from '#shared/stations/domain/fuel-candidates.ts';
import type { CatalogProvider } from '#shared/stations/usecases/station-catalog.ts';
import { type VehicleFuelLevelDeps, vehicleFuelLevel } from '#shared/tracking/usecases/vehicle-fuel-level.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import type { VehicleReader } from '#shared/vehicles/store/vehicles.ts';
import { assertActive, findVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import type { CreateRouteBody } from '../api/schemas.ts';
import { type PlannedTruckRoute, truckRouteResource } from '../api/serializers.ts';
import type { TruckRouteStore } from '../store/truck-routes.ts';

export interface TruckRouteDeps {
  router: RoutingEngine;
  catalog: CatalogProvider;
  /** The state diesel tax rates in force: the plan prices each station net of its state's tax under `ifta`. */
  fuelTaxes: FuelTaxRatesProvider;
  vehicles: VehicleReader;
  positions: VehicleFuelLevelDeps['positions'];
  routes: TruckRouteStore;
  /**
   * The acting fleet's default_min_arrival_fuel_percent, for a request that omits the field, and
   * its assumed_departure_fuel_percent, for a vehicle that never reported a level.
   */
  fleets: Pick<FleetStore, 'get'>;
  tracking: VehicleFuelLevelDeps['tracking'];
  counters: StationBudgetDeps['counters'];
  plan: StationBudgetDeps['plan'];
  now: () => number;
}

/** Where the truck starts, with what tank, burn and fuel. */
type Trip = PlannedTruckRoute['trip'];

/**
 * POST /v1/routes: route the trip, find the stations in its corridor, plan the cheapest feasible
 * purchases and compare them with the counterfactual (the mean price of the stations in reach for
 * each purchase), on the fleet's (or the vehicle's) fuel_tax_treatment. The answer is stored as sent, for
 * GET /v1/routes/{id}. An infeasible plan is still a route: the plan says why.
 */
export async function createRoute(
  deps: TruckRouteDeps,
  principal: Principal,
  fleetId: string,
  body: CreateRouteBody,
) {
  const nowMs = deps.now();
  const settings = await fuelSettingsFor(deps, fleetId, body.min_arrival_fuel_percent);
  const fleet = { truckProfile: settings.fleetTruckProfile };
  const { trip, taxTreatment, truck } = body.vehicle_id
    ? await vehicleTrip(deps, fleetId, body.vehicle_id, settings, nowMs)
    : {
        trip: manualTrip(body, nowMs),
        taxTreatment: settings.fleetTaxTreatment,
        truck: truckFor(null, fleet),
      };
  const { minArrivalFuelPercent } = settings;
  const resource = await planTruckRoute(deps, {
    trip,
    destination: body.destination,
    minArrivalFuelPercent,
    corridorWidthMiles: body.corridor_width_miles,
    taxTreatment,
    truck,
    program: settings.fuelProgram,
  });
  const { id } = resource;
  // Recommended stops are station results (docs/limits.md), charged before the route is stored: a
  // route is an explicit query, refused at the budget like GET /v1/stations.
  await chargeStationResults(deps, principal, resource.plan.stops.length, 'refuse');
  // Stored as sent, for GET /v1/routes/{id}.
  await deps.routes.put(fleetId, id, JSON.stringify(resource), deps.now());
  return resource;
}

/** What a truck route is planned from. */
export interface TruckRouteRequest {
  trip: Trip;
  destination: PlannedTruckRoute['destination'];
  minArrivalFuelPercent: number;
  corridorWidthMiles: number;
  /** How the plan values a gallon: the vehicle's override, else the fleet's setting. */
  taxTreatment: FuelTaxTreatment;
  /** The truck the route is for: the vehicle's profile, else the fleet's, else the standard truck's. */
  truck: ResolvedTruckProfile;
  /** The fleet's fuel card program: its discounts, and the stations the plan may recommend. */
  program: FuelProgram;
}

/**
 * Routes the trip, finds the stations in its corridor and plans the cheapest feasible purchases
 * on the request's price basis, against their counterfactual: the route as POST /v1/routes answers it (not stored, not
 * charged). Trips plan their fuel stops with this too, so both speak of the same plan.
 */
export async function planTruckRoute(
  deps: Pick<TruckRouteDeps, 'router' | 'catalog' | 'fuelTaxes' | 'now'>,
  request: TruckRouteRequest,
) {
  const { trip, destination, minArrivalFuelPercent, program } = request;
  const route = await deps.router.route({
    origin: trip.origin,
    destination,
    originHeadingDegrees: trip.headingDegrees ?? null,
    truck: request.truck.profile,
  });
  const [index, taxes] = await Promise.all([deps.catalog.current(), deps.fuelTaxes.current()]);
  const nowMs = deps.now();
  const corridor = corridorStations(index, route, request.corridorWidthMiles);
  const candidates = fuelCandidates(corridor, program, taxes, nowMs);
  // The fleet-default policy (documented in docs/api-guide.md): reserve 10 % of the tank, buy ≥ 20 gal a stop.
  const reserveGallons = DEFAULT_RESERVE_FRACTION * trip.tankGallons;
  const plan = planWithinProgram(
    {
      reserveGallons,
      minPurchaseGallons: DEFAULT_MIN_PURCHASE_GALLONS,
      routeMiles: route.distanceMiles,
      destinationName: destination.name ?? 'the destination',
      stations: candidates,
      tankGallons: trip.tankGallons,
      mpg: trip.mpg,
      currentFuelGallons: (trip.fuelPercent / 100) * trip.tankGallons,
      minArrivalGallons: (minArrivalFuelPercent / 100) * trip.tankGallons,
      taxTreatment: request.taxTreatment,
    },
    program.rule,
  );
  return truckRouteResource({
    id: newId('route', nowMs),
    createdAtMs: nowMs,
    trip,
    destination,
    route,
    minArrivalFuelPercent,
    reserveGallons,
    plan,
    corridorStations: corridor.map(({ station }) => station),
    program,
    // A `required` program's refused stations are never candidates.
    candidateStationCount:
      program.rule === 'required' ? acceptedStations({ stations: candidates }).length : candidates.length,
    catalogVersion: index.version,
    truck: request.truck,
  });
}

function manualTrip(body: CreateRouteBody, nowMs: number): Trip {
  // The schema requires these without vehicle_id.
  return {
    vehicleId: null,
    origin: body.origin as Trip['origin'],
    tankGallons: body.tank_size_gallons as number,
    mpg: body.estimated_mpg as number,
    fuelPercent: body.fuel_level_percent as number,
    // The caller's own figure, as of the request.
    fuelLevelSource: 'reported',
    fuelLevelAsOfMs: nowMs,
  };
}

async function vehicleTrip(
  deps: TruckRouteDeps,
  fleetId: string,
  ref: string,
  settings: {
    assumedDepartureFuelPercent: number;
    fleetTaxTreatment: FuelTaxTreatment;
    fleetTruckProfile: TruckProfileSettings | null;
  },
  nowMs: number,
): Promise<{ trip: Trip; taxTreatment: FuelTaxTreatment; truck: ResolvedTruckProfile }> {
  const vehicle: Vehicle = await findVehicle(deps, fleetId, ref);
  assertActive(vehicle);
  if (vehicle.tankSizeGallons === null || vehicle.estimatedMpg === null) {
    throw new ApiError(
      'insufficient_fuel_data',
      `Vehicle ${vehicle.id} has no tank_size_gallons or estimated_mpg.`,
      {
        hint: `set tank_size_gallons and estimated_mpg via PATCH /v1/vehicles/${vehicle.id}`,
      },
    );
  }
  const { latest: position, fuel } = await vehicleFuelLevel(
    deps,
    fleetId,
    vehicle,
    settings.assumedDepartureFuelPercent,
    nowMs,
  );
  if (!position) {
    throw new ApiError('validation_failed', `Vehicle ${vehicle.id} has not reported a position yet.`, {
      extensions: {
        errors: [
          {
            field: 'vehicle_id',
            message: 'has no position yet: send breadcrumbs (POST /v1/locations) or use the manual form',
          },
        ],
      },
    });
  }
  const trip: Trip = {
    vehicleId: vehicle.id,
    origin: { latitude: position.latitude, longitude: position.longitude },
    // The route goes on the way the truck is driving, not back to the junction behind it.
    headingDegrees: position.travelHeadingDegrees ?? null,
    tankGallons: vehicle.tankSizeGallons,
    mpg: vehicle.estimatedMpg,
    fuelPercent: fuel.percent,
    fuelLevelSource: fuel.source,
    fuelLevelAsOfMs: fuel.asOfMs,
  };
  return {
    trip,
    // A truck that is not IFTA-qualified overrides the fleet's setting.
    taxTreatment: treatmentFor({ fuelTaxTreatment: settings.fleetTaxTreatment }, vehicle),
    truck: truckFor(vehicle, { truckProfile: settings.fleetTruckProfile }),
  };
}

export async function getRoute(
  deps: Pick<TruckRouteDeps, 'routes'>,
  fleetId: string,
  routeId: string,
): Promise<unknown> {
  const json = await deps.routes.get(fleetId, routeId);
  if (json === null)
    throw new ApiError('resource_not_found', `Route ${routeId} was not found in this fleet.`);
  return JSON.parse(json);
}
