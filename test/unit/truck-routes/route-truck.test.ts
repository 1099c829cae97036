import { describe, expect, it, vi } from 'vitest';
import type { Fleet } from '#shared/fleets/domain/fleet.ts';
import { type TruckProfileSettings, UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { shippedFuelTaxRates } from '#shared/fuel-tax/usecases/fuel-tax-rates.ts';
import { createEmbeddedRouter } from '#shared/geo/embedded-router.ts';
import type { RouteRequest, RoutingEngine } from '#shared/geo/routing-engine.ts';
import { StationIndex } from '#shared/geo/station-index.ts';
import { buildSyntheticCatalog } from '#shared/geo/synthetic-catalog.ts';
import { startSession } from '#shared/guidance/domain/session.ts';
import { type GuidancePlanDeps, replan } from '#shared/guidance/usecases/guidance-plan.ts';
import { type CorridorDeps, stationsAlongRoute } from '#shared/stations/usecases/stations.ts';
import type { LatestPosition } from '#shared/tracking/domain/positions.ts';
import { emptyTracking } from '#shared/tracking/domain/vehicle-tracking.ts';
import { tripResource } from '#shared/trips/api/serializers.ts';
import { routeTrip, withFuelStops } from '#shared/trips/usecases/trip-fuel-stops.ts';
import { createRoute, type TruckRouteDeps } from '#shared/truck-routes/usecases/truck-routes.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import { dispatcherPrincipal } from '#test/support/principals.ts';
import { aTrip, T0 } from '../trips/fixtures.ts';

// Every planner hands the routing engine the truck: the vehicle's members, else its fleet's, else
// the standard truck's (162 in, 102 in, 70 ft, 80,000 lb, 5 axles, no hazardous cargo).

const trip = aTrip('active', { stops: [], route: null });
/** A tall tanker: its own height and cargo; the rest is left to the fleet. */
const VEHICLE_PROFILE: TruckProfileSettings = {
  ...UNSET_TRUCK_PROFILE,
  heightInches: 150,
  hazardousCargo: ['flammable'],
};
/** The fleet runs heavy six-axle combinations, and sets a height its tanker overrides. */
const FLEET_PROFILE: TruckProfileSettings = {
  ...UNSET_TRUCK_PROFILE,
  heightInches: 165,
  grossWeightLbs: 97_000,
  axleCount: 6,
};
/** What the engine receives for the tanker. */
const TANKER_TRUCK = {
  heightInches: 150,
  widthInches: 102,
  lengthFeet: 70,
  grossWeightLbs: 97_000,
  axleCount: 6,
  hazardousCargo: ['flammable'],
};
/** What the engine receives for a route that names no vehicle: the fleet's, else standard. */
const FLEET_TRUCK = {
  heightInches: 165,
  widthInches: 102,
  lengthFeet: 70,
  grossWeightLbs: 97_000,
  axleCount: 6,
  hazardousCargo: [],
};

const vehicle = {
  id: trip.vehicleId,
  fleetId: trip.fleetId,
  status: 'active',
  tankSizeGallons: 150,
  estimatedMpg: 6.5,
  truckProfile: VEHICLE_PROFILE,
} as unknown as Vehicle;
const fleet = { id: trip.fleetId, truckProfile: FLEET_PROFILE } as unknown as Fleet;
const catalog = new StationIndex('synthetic', buildSyntheticCatalog(T0));
const dallas = { latitude: 32.7767, longitude: -96.797 };
const denver = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };

const position: LatestPosition = {
  latitude: dallas.latitude,
  longitude: dallas.longitude,
  recordedAtMs: T0 - 60_000,
  recordedAt: new Date(T0 - 60_000).toISOString(),
  receivedAtMs: T0 - 30_000,
  fuelLevelPercent: 40,
  speedKmh: 0,
  headingDegrees: null,
  travelHeadingDegrees: null,
  driverRef: null,
  address: null,
};

/** The embedded router, remembering what it was asked. */
function recordingRouter(): RoutingEngine & { requests: RouteRequest[] } {
  const embedded = createEmbeddedRouter();
  const requests: RouteRequest[] = [];
  return {
    requests,
    route: async (request) => {
      requests.push(request);
      return embedded.route(request);
    },
  };
}

function routeDeps(router: RoutingEngine, fleetRecord: Fleet | null = fleet) {
  return {
    router,
    catalog: { current: async () => catalog },
    fuelPrograms: { get: async () => NO_FUEL_PROGRAM },
    fuelTaxes: shippedFuelTaxRates,
    vehicles: { get: async () => vehicle, idForExternalRef: async () => null },
    positions: {
      latest: async () => position,
      recent: async () => ({ latest: position, recent: [], flushedThroughMs: null, version: 1 }),
    },
    tracking: { get: async () => emptyTracking(trip.fleetId, vehicle.id) },
    routes: { put: async () => {}, get: async () => null },
    fleets: { get: async () => fleetRecord },
    counters: { addUsage: async () => {}, addUsageWithin: async () => ({ admitted: true, used: 0 }) },
    plan: async () => ({ stationQueryBudget: 1_000 }),
    now: () => T0,
  } as unknown as TruckRouteDeps;
}

describe('POST /v1/routes routes for the truck', () => {
  it('the vehicle form: the vehicle’s members, the fleet’s for the rest, the standard truck’s beyond', async () => {
    // Prepare
    const router = recordingRouter();

    // Act
    const route = await createRoute(routeDeps(router), dispatcherPrincipal(trip.fleetId), trip.fleetId, {
      vehicle_id: vehicle.id,
      destination: denver,
      min_arrival_fuel_percent: 15,
      corridor_width_miles: 2,
    });

    // Assess
    expect(router.requests.map((request) => request.truck)).toEqual([TANKER_TRUCK]);
    expect(route.truck_profile).toEqual({
      height_inches: 150,
      width_inches: 102,
      length_feet: 70,
      gross_weight_lbs: 97_000,
      axle_count: 6,
      hazardous_cargo: ['flammable'],
    });
    expect(route.truck_profile_sources).toEqual({
      height_inches: 'vehicle',
      width_inches: 'standard',
      length_feet: 'standard',
      gross_weight_lbs: 'fleet',
      axle_count: 'fleet',
      hazardous_cargo: 'vehicle',
    });
  });

  it('the manual form: the fleet’s profile, the standard truck’s for what it does not set', async () => {
    // Prepare
    const router = recordingRouter();

    // Act
    const route = await createRoute(routeDeps(router), dispatcherPrincipal(trip.fleetId), trip.fleetId, {
      origin: dallas,
      tank_size_gallons: 150,
      estimated_mpg: 6.5,
      fuel_level_percent: 40,
      destination: denver,
      min_arrival_fuel_percent: 15,
      corridor_width_miles: 2,
    });

    // Assess
    expect(router.requests.map((request) => request.truck)).toEqual([FLEET_TRUCK]);
    expect(route.truck_profile_sources.height_inches).toBe('fleet');
    expect(route.truck_profile_sources.hazardous_cargo).toBe('standard');
  });

  it('a fleet that set nothing and a vehicle that set nothing route the standard truck', async () => {
    // Prepare
    const router = recordingRouter();
    const plainFleet = { ...fleet, truckProfile: { ...UNSET_TRUCK_PROFILE } };

    // Act
    const route = await createRoute(
      routeDeps(router, plainFleet),
      dispatcherPrincipal(trip.fleetId),
      trip.fleetId,
      {
        origin: dallas,
        tank_size_gallons: 150,
        estimated_mpg: 6.5,
        fuel_level_percent: 40,
        destination: denver,
        min_arrival_fuel_percent: 15,
        corridor_width_miles: 2,
      },
    );

    // Assess
    expect(router.requests[0]?.truck).toEqual({
      heightInches: 162,
      widthInches: 102,
      lengthFeet: 70,
      grossWeightLbs: 80_000,
      axleCount: 5,
      hazardousCargo: [],
    });
    expect(new Set(Object.values(route.truck_profile_sources))).toEqual(new Set(['standard']));
  });
});

describe('trips route for their vehicle’s truck', () => {
  it('fuel stops (auto_optimize, /optimize) and the plain route of a trip both pass it', async () => {
    // Prepare
    const router = recordingRouter();
    const deps = routeDeps(router);

    // Act
    const optimized = await withFuelStops(deps, trip, vehicle, T0);
    const routed = await routeTrip(deps, trip, vehicle);

    // Assess
    expect(router.requests.map((request) => request.truck)).toEqual([TANKER_TRUCK, TANKER_TRUCK]);
    expect(optimized.route?.truck?.profile).toEqual(TANKER_TRUCK);
    expect(routed.truck.sources.grossWeightLbs).toBe('fleet');
  });

  it('the trip answers the truck its route was computed for, and null before it has a route', async () => {
    // Prepare
    const routed = await routeTrip(routeDeps(recordingRouter()), trip, vehicle);

    // Act
    const withRoute = tripResource({ ...trip, route: routed });
    const withoutRoute = tripResource({ ...trip, route: null });

    // Assess
    expect(withRoute.truck_profile).toEqual({
      height_inches: 150,
      width_inches: 102,
      length_feet: 70,
      gross_weight_lbs: 97_000,
      axle_count: 6,
      hazardous_cargo: ['flammable'],
    });
    expect(withRoute.truck_profile_sources?.height_inches).toBe('vehicle');
    expect(withoutRoute.truck_profile).toBeNull();
    expect(withoutRoute.truck_profile_sources).toBeNull();
  });

  it('the plain route of a trip whose vehicle is gone routes the fleet’s truck', async () => {
    // Prepare
    const router = recordingRouter();

    // Act
    await routeTrip(routeDeps(router), trip, null);

    // Assess
    expect(router.requests[0]?.truck).toEqual(FLEET_TRUCK);
  });
});

describe('stations along a route between two points', () => {
  it('routes the fleet’s truck (the request names no vehicle)', async () => {
    // Prepare
    const router = recordingRouter();
    const deps = {
      ...routeDeps(router),
      plan: async () => ({ name: 'growth', stationQueryBudget: 1_000, priceQueryCap: 50 }),
      guard: async () => {},
      fleetPlanning: {
        get: vi.fn(async (fleetId: string) => ({
          program: NO_FUEL_PROGRAM,
          truckProfile: fleetId === trip.fleetId ? FLEET_PROFILE : null,
        })),
      },
    } as unknown as CorridorDeps;

    // Act
    await stationsAlongRoute(deps, dispatcherPrincipal(trip.fleetId), trip.fleetId, {
      origin: dallas,
      destination: denver,
      corridor_width_miles: 2,
      max_results: 5,
      accepted_only: false,
    });

    // Assess
    expect(router.requests.map((request) => request.truck)).toEqual([FLEET_TRUCK]);
    // The program and the truck come from one read of the fleet.
    expect(deps.fleetPlanning.get).toHaveBeenCalledTimes(1);
  });
});

describe('guidance routes for the vehicle’s truck', () => {
  it('a cycle that routes anew passes the vehicle’s profile over its fleet’s', async () => {
    // Prepare
    const router = recordingRouter();
    const session = startSession({
      id: 'gd_1',
      vehicleId: vehicle.id,
      destination: denver,
      minArrivalFuelPercent: 15,
      nowMs: T0 - 60_000,
    });
    const deps: GuidancePlanDeps = {
      router,
      catalog: { current: async () => catalog } as unknown as GuidancePlanDeps['catalog'],
      fuelTaxes: shippedFuelTaxRates,
      fleets: { get: async () => fleet },
      routes: { get: async () => null, put: async () => true } as unknown as GuidancePlanDeps['routes'],
    };

    // Act
    await replan(
      deps,
      trip.fleetId,
      session,
      {
        vehicle: { id: vehicle.id, tankSizeGallons: 150, estimatedMpg: 6.5, truckProfile: VEHICLE_PROFILE },
        position: { ...dallas, recordedAtMs: T0 },
        fuel: { percent: 40, source: 'reported', reportedAtMs: T0 },
        dwellingAtStationId: null,
      },
      T0,
    );

    // Assess
    expect(router.requests.map((request) => request.truck)).toEqual([TANKER_TRUCK]);
  });

  it('a vehicle snapshot without a profile (a message from before profiles) routes its fleet’s', async () => {
    // Prepare
    const router = recordingRouter();
    const session = startSession({
      id: 'gd_1',
      vehicleId: vehicle.id,
      destination: denver,
      minArrivalFuelPercent: 15,
      nowMs: T0 - 60_000,
    });
    const deps: GuidancePlanDeps = {
      router,
      catalog: { current: async () => catalog } as unknown as GuidancePlanDeps['catalog'],
      fuelTaxes: shippedFuelTaxRates,
      fleets: { get: async () => fleet },
      routes: { get: async () => null, put: async () => true } as unknown as GuidancePlanDeps['routes'],
    };

    // Act
    await replan(
      deps,
      trip.fleetId,
      session,
      {
        vehicle: { id: vehicle.id, tankSizeGallons: 150, estimatedMpg: 6.5 },
        position: { ...dallas, recordedAtMs: T0 },
        fuel: { percent: 40, source: 'reported', reportedAtMs: T0 },
        dwellingAtStationId: null,
      },
      T0,
    );

    // Assess
    expect(router.requests.map((request) => request.truck)).toEqual([FLEET_TRUCK]);
  });
});
