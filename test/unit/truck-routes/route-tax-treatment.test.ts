import { describe, expect, it } from 'vitest';
import type { FuelTaxTreatment } from '#shared/fuel-tax/domain/treatment.ts';
import { shippedFuelTaxRates } from '#shared/fuel-tax/usecases/fuel-tax-rates.ts';
import { createEmbeddedRouter } from '#shared/geo/embedded-router.ts';
import { StationIndex } from '#shared/geo/station-index.ts';
import { buildSyntheticCatalog } from '#shared/geo/synthetic-catalog.ts';
import type { LatestPosition } from '#shared/tracking/domain/positions.ts';
import { emptyTracking } from '#shared/tracking/domain/vehicle-tracking.ts';
import { withFuelStops } from '#shared/trips/usecases/trip-fuel-stops.ts';
import { createRoute, type TruckRouteDeps } from '#shared/truck-routes/usecases/truck-routes.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import { dispatcherPrincipal } from '#test/support/principals.ts';
import { aTrip, T0 } from '../trips/fixtures.ts';

const trip = aTrip('planned', { stops: [], route: null, startFuelPercent: 30 });
const catalog = new StationIndex('synthetic', buildSyntheticCatalog(T0));
const chicago = { latitude: 41.8781, longitude: -87.6298, name: 'Chicago' };
const denver = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
const position: LatestPosition = {
  ...chicago,
  recordedAtMs: T0 - 60_000,
  recordedAt: new Date(T0 - 60_000).toISOString(),
  receivedAtMs: T0 - 30_000,
  fuelLevelPercent: 30,
  speedKmh: 0,
  headingDegrees: null,
  travelHeadingDegrees: null,
  driverRef: null,
  address: null,
};

/** A fleet and a truck with the given settings (undefined: never set), Chicago → Denver. */
function depsWith(fleet: FuelTaxTreatment | undefined, truck: FuelTaxTreatment | null) {
  const vehicle = {
    id: trip.vehicleId,
    fleetId: trip.fleetId,
    status: 'active',
    tankSizeGallons: 200,
    estimatedMpg: 6.5,
    fuelTaxTreatment: truck,
  } as unknown as Vehicle;
  const deps = {
    router: createEmbeddedRouter(),
    catalog: { current: async () => catalog },
    fuelTaxes: shippedFuelTaxRates,
    vehicles: { get: async () => vehicle, idForExternalRef: async () => null },
    positions: {
      latest: async () => position,
      recent: async () => ({ latest: position, recent: [], flushedThroughMs: null, version: 1 }),
    },
    tracking: { get: async () => emptyTracking(trip.fleetId, vehicle.id) },
    routes: { put: async () => {}, get: async () => null },
    fleets: { get: async () => (fleet ? { id: trip.fleetId, fuelTaxTreatment: fleet } : null) },
    counters: { addUsage: async () => {}, addUsageWithin: async () => ({ admitted: true, used: 0 }) },
    plan: async () => ({ stationQueryBudget: 1_000 }),
    now: () => T0,
  } as unknown as TruckRouteDeps;
  return { deps, vehicle };
}

const routeFor = (fleet: FuelTaxTreatment | undefined, truck: FuelTaxTreatment | null) => {
  const { deps, vehicle } = depsWith(fleet, truck);
  return createRoute(deps, dispatcherPrincipal(trip.fleetId), trip.fleetId, {
    vehicle_id: vehicle.id,
    destination: denver,
    min_arrival_fuel_percent: 20,
    corridor_width_miles: 5,
  });
};

describe('the price basis a route and a trip are planned on', () => {
  it('is ifta for a fleet that never set it, each stop net of its state tax', async () => {
    // Act
    const route = await routeFor(undefined, null);

    // Assess
    expect(route.plan.fuel_tax_treatment).toBe('ifta');
    expect(route.savings?.fuel_tax_treatment).toBe('ifta');
    for (const stop of route.plan.stops) {
      expect(stop.effective_price_usd_per_gallon).toBeCloseTo(
        stop.net_price_usd_per_gallon - (stop.state_tax_usd_per_gallon ?? 0),
        3,
      );
    }
  });

  it("is the fleet's pump setting, and a truck's own ifta wins over it", async () => {
    // Act
    const fleetPump = await routeFor('pump', null);
    const truckIfta = await routeFor('pump', 'ifta');

    // Assess: under pump nothing is credited.
    expect(fleetPump.plan.fuel_tax_treatment).toBe('pump');
    for (const stop of fleetPump.plan.stops) {
      expect(stop.effective_price_usd_per_gallon).toBe(stop.net_price_usd_per_gallon);
    }
    expect(truckIfta.plan.fuel_tax_treatment).toBe('ifta');
  });

  it("plans a trip's fuel stops on the truck's basis and keeps it with the plan", async () => {
    // Prepare: an IFTA fleet, a truck that is not IFTA-qualified.
    const { deps, vehicle } = depsWith('ifta', 'pump');
    const chicagoToDenver = { ...trip, origin: chicago, destination: denver };

    // Act
    const planned = await withFuelStops(deps, chicagoToDenver, vehicle, T0);

    // Assess
    expect(planned.fuelPlan?.taxTreatment).toBe('pump');
    expect(planned.fuelPlan?.baseline).toMatchObject({ fuel_tax_treatment: 'pump' });
    const fuel = planned.stops.flatMap((stop) => (stop.fuel ? [stop.fuel] : []));
    expect(fuel.length).toBeGreaterThan(0);
    for (const stop of fuel) expect(stop.effectivePrice).toBe(stop.netPrice);
  });
});
