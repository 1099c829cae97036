import { describe, expect, it } from 'vitest';
import { shippedFuelTaxRates } from '#shared/fuel-tax/usecases/fuel-tax-rates.ts';
import { createEmbeddedRouter } from '#shared/geo/embedded-router.ts';
import type { RouteRequest, RoutingEngine } from '#shared/geo/routing-engine.ts';
import { StationIndex } from '#shared/geo/station-index.ts';
import { buildSyntheticCatalog } from '#shared/geo/synthetic-catalog.ts';
import type { LatestPosition } from '#shared/tracking/domain/positions.ts';
import { emptyTracking } from '#shared/tracking/domain/vehicle-tracking.ts';
import { withFuelStops } from '#shared/trips/usecases/trip-fuel-stops.ts';
import { createRoute, type TruckRouteDeps } from '#shared/truck-routes/usecases/truck-routes.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import { dispatcherPrincipal } from '#test/support/principals.ts';
import { aTrip, T0 } from '../trips/fixtures.ts';

const trip = aTrip('active', { stops: [], route: null });
const vehicle = {
  id: trip.vehicleId,
  fleetId: trip.fleetId,
  status: 'active',
  tankSizeGallons: 150,
  estimatedMpg: 6.5,
} as unknown as Vehicle;
const catalog = new StationIndex('synthetic', buildSyntheticCatalog(T0));
const denver = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };

/** The truck on I-35 north of Dallas, northbound by its breadcrumbs. */
const position: LatestPosition = {
  latitude: 32.84016,
  longitude: -96.84544,
  recordedAtMs: T0 - 60_000,
  recordedAt: new Date(T0 - 60_000).toISOString(),
  receivedAtMs: T0 - 30_000,
  fuelLevelPercent: 22,
  speedKmh: 96,
  headingDegrees: null,
  travelHeadingDegrees: 352,
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

function depsWith(router: RoutingEngine, latest: LatestPosition | null) {
  return {
    router,
    catalog: { current: async () => catalog },
    fuelTaxes: shippedFuelTaxRates,
    vehicles: { get: async () => vehicle, idForExternalRef: async () => null },
    positions: {
      latest: async () => latest,
      recent: async () => latest && { latest, recent: [], flushedThroughMs: null, version: 1 },
    },
    tracking: { get: async () => emptyTracking(trip.fleetId, vehicle.id) },
    routes: { put: async () => {}, get: async () => null },
    fleets: { get: async () => null },
    counters: { addUsage: async () => {}, addUsageWithin: async () => ({ admitted: true, used: 0 }) },
    plan: async () => ({ stationQueryBudget: 1_000 }),
    now: () => T0,
  } as unknown as TruckRouteDeps;
}

describe('routes from a vehicle’s position go the way it is driving', () => {
  it('POST /v1/routes in the vehicle form passes the latest position’s direction of travel', async () => {
    // Prepare
    const router = recordingRouter();

    // Act
    const route = await createRoute(
      depsWith(router, position),
      dispatcherPrincipal(trip.fleetId),
      trip.fleetId,
      {
        vehicle_id: vehicle.id,
        destination: denver,
        min_arrival_fuel_percent: 15,
        corridor_width_miles: 2,
      },
    );

    // Assess: the 888.5 miles ahead, not 901 with a U-turn to downtown Dallas.
    expect(router.requests).toEqual([expect.objectContaining({ originHeadingDegrees: 352 })]);
    expect(route.distance_miles).toBeCloseTo(888.5, 0);
  });

  it('the manual form has no direction: the origin is a place, not a moving truck', async () => {
    // Prepare
    const router = recordingRouter();

    // Act
    await createRoute(depsWith(router, position), dispatcherPrincipal(trip.fleetId), trip.fleetId, {
      origin: { latitude: position.latitude, longitude: position.longitude },
      tank_size_gallons: 150,
      estimated_mpg: 6.5,
      fuel_level_percent: 22,
      destination: denver,
      min_arrival_fuel_percent: 15,
      corridor_width_miles: 2,
    });

    // Assess
    expect(router.requests[0]?.originHeadingDegrees ?? null).toBeNull();
  });

  it('an active trip’s fuel stops are planned from the truck the way it is driving; a planned trip’s from its origin', async () => {
    // Prepare
    const router = recordingRouter();
    const deps = depsWith(router, position);

    // Act
    await withFuelStops(deps, trip, vehicle, T0);
    await withFuelStops(deps, { ...trip, status: 'planned' }, vehicle, T0);

    // Assess
    expect(router.requests.map((request) => request.originHeadingDegrees ?? null)).toEqual([352, null]);
  });
});
