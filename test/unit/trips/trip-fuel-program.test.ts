import { describe, expect, it, vi } from 'vitest';
import { chainKey, type FuelProgram } from '#shared/fuel-programs/domain/program.ts';
import { shippedFuelTaxRates } from '#shared/fuel-tax/usecases/fuel-tax-rates.ts';
import { createEmbeddedRouter } from '#shared/geo/embedded-router.ts';
import { StationIndex } from '#shared/geo/station-index.ts';
import { buildSyntheticCatalog } from '#shared/geo/synthetic-catalog.ts';
import { emptyTracking } from '#shared/tracking/domain/vehicle-tracking.ts';
import { tripResource } from '#shared/trips/api/serializers.ts';
import type { Trip } from '#shared/trips/domain/trip.ts';
import type { TripDeps } from '#shared/trips/usecases/trips.ts';
import { createTrip } from '#shared/trips/usecases/trips.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import { dispatcherPrincipal } from '#test/support/principals.ts';
import { aTrip, pickup, T0 } from './fixtures.ts';

// A trip's fuel stops under the fleet's fuel card program, planned by the real route planner (the
// embedded router over the synthetic catalog): a quarter of a 100-gallon tank, Dallas → Denver.
const trip = aTrip('planned', { stops: [pickup], startFuelPercent: 25 });
const principal = dispatcherPrincipal(trip.fleetId, 'tiny');
const vehicle = {
  id: trip.vehicleId,
  fleetId: trip.fleetId,
  status: 'active',
  tankSizeGallons: 100,
  estimatedMpg: 6,
} as unknown as Vehicle;
const router = createEmbeddedRouter();
const catalog = new StationIndex('synthetic', buildSyntheticCatalog(T0));

const program = (chain: string): FuelProgram => ({
  rule: 'required',
  chains: [{ chain, discountCents: 8 }],
  offProgramPenaltyCents: 0,
  updatedAt: '2026-11-01T00:00:00.000000Z',
});

/** The trip createTrip stores under `fuelProgram`, as the API shows it. */
async function createdUnder(fuelProgram: FuelProgram) {
  const create = vi.fn(async (_trip: Trip) => {});
  const deps = {
    trips: { create, save: vi.fn(), get: vi.fn(async () => trip) },
    vehicles: { get: vi.fn(async () => vehicle), idForExternalRef: vi.fn() },
    counters: { addUsage: vi.fn(), addUsageWithin: vi.fn(async () => ({ admitted: true, used: 0 })) },
    plan: async () => ({ stationQueryBudget: 100 }),
    router,
    catalog: { current: async () => catalog },
    fuelTaxes: shippedFuelTaxRates,
    positions: { latest: async () => null, recent: async () => null },
    tracking: { get: async () => emptyTracking(trip.fleetId, vehicle.id) },
    // The program is read with the fleet's other planning settings, in one read.
    fleets: { get: async () => ({ fuelProgram }) },
    now: () => T0,
  } as unknown as TripDeps;
  await createTrip(deps, principal, trip.fleetId, {
    vehicle_id: trip.vehicleId,
    origin: { latitude: 32.7767, longitude: -96.797 },
    destination: { latitude: 39.7392, longitude: -104.9903 },
    planned_start_at: '2026-11-24T08:00:00Z',
    auto_optimize: true,
    start_fuel_percent: 25,
  });
  return tripResource(create.mock.calls[0]?.[0] as Trip);
}

describe("a trip's fuel stops under a required fuel program", () => {
  it('are all at the accepted chain, each saying so, with its discount', async () => {
    const resource = await createdUnder(program("LOVE'S"));

    const fuel = resource.stops.flatMap((stop) => (stop.fuel ? [stop.fuel] : []));
    expect(fuel.length).toBeGreaterThan(0);
    for (const stop of fuel) {
      expect(chainKey(stop.station.chain)).toBe(chainKey("Love's"));
      expect(stop.in_fuel_program).toBe(true);
      expect(stop.discount_usd_per_gallon).toBe(0.08);
    }
    expect(resource.fuel_plan?.status).toBe('ok');
    expect(resource.fuel_plan?.fuel_program_shortfall).toBeNull();
  });

  it('are none when no accepted station is on the route, and the plan says so with the shortfall', async () => {
    const resource = await createdUnder(program('Nowhere Fuel Co'));

    expect(resource.stops.filter((stop) => stop.type === 'fuel')).toEqual([]);
    expect(resource.fuel_plan).toMatchObject({
      status: 'no_accepted_station_in_range',
      fuel_program_shortfall: {
        code: 'no_accepted_station_in_range',
        nearest_accepted_stop: null,
        shortfall_miles: null,
        shortfall_gallons: null,
      },
    });
    expect(resource.fuel_plan?.reason).toMatch(/^No station on your fuel card program is within reach/);
  });
});
