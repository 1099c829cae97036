import { beforeEach, describe, expect, it, vi } from 'vitest';
import { shippedFuelTaxRates } from '#shared/fuel-tax/usecases/fuel-tax-rates.ts';
import { createEmbeddedRouter } from '#shared/geo/embedded-router.ts';
import { StationIndex } from '#shared/geo/station-index.ts';
import { buildSyntheticCatalog } from '#shared/geo/synthetic-catalog.ts';
import { emptyTracking } from '#shared/tracking/domain/vehicle-tracking.ts';
import type { Trip } from '#shared/trips/domain/trip.ts';
import type { TripDeps } from '#shared/trips/usecases/trips.ts';
import { createTrip, optimizeTrip, updateTrip } from '#shared/trips/usecases/trips.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import { dispatcherPrincipal } from '#test/support/principals.ts';
import { aTrip, pickup, T0 } from './fixtures.ts';

// The fuel stops come from the real route planner (the embedded router over the synthetic
// catalog, as the local stack plans them): a quarter of a 100-gallon tank from Dallas needs two or
// three stops to Amarillo or Denver, and each test checks the charge against the stops the trip
// was stored with.
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

function fakeDeps(budget: { admitted: boolean; used: number }, saves: ('stored' | 'lost_race')[] = []) {
  const addUsageWithin = vi.fn(async () => budget);
  const create = vi.fn(async (_trip: Trip) => {});
  const save = vi.fn(async (_trip: Trip) => saves.shift() ?? 'stored');
  const deps = {
    trips: { create, save, get: vi.fn(async () => trip) },
    vehicles: { get: vi.fn(async () => vehicle), idForExternalRef: vi.fn() },
    counters: { addUsage: vi.fn(), addUsageWithin },
    plan: async () => ({ stationQueryBudget: 10 }),
    router,
    catalog: { current: async () => catalog },
    fuelTaxes: shippedFuelTaxRates,
    positions: { latest: async () => null, recent: async () => null },
    tracking: { get: async () => emptyTracking(trip.fleetId, vehicle.id) },
    fleets: { get: async () => null },
    now: () => T0,
  } as unknown as TripDeps;
  return { deps, addUsageWithin, create, save };
}

/** The fuel stops of the trip a store call was given. */
const fuelStopsOf = (stored: Trip | undefined) => stored?.stops.filter((stop) => stop.type === 'fuel') ?? [];

const body = {
  vehicle_id: trip.vehicleId,
  origin: { latitude: 32.7767, longitude: -96.797 },
  destination: { latitude: 39.7392, longitude: -104.9903 },
  planned_start_at: '2026-11-24T08:00:00Z',
  auto_optimize: true,
  start_fuel_percent: 25,
};

describe('the station-query budget of a trip’s fuel stops', () => {
  beforeEach(() => vi.clearAllMocks());

  it('charges a created trip its fuel-stop count against the plan’s budget, then stores it', async () => {
    const { deps, addUsageWithin, create } = fakeDeps({ admitted: true, used: 2 });
    await createTrip(deps, principal, trip.fleetId, body);
    expect(create).toHaveBeenCalledOnce();
    const stops = fuelStopsOf(create.mock.calls[0]?.[0]).length;
    expect(stops).toBeGreaterThan(0);
    expect(addUsageWithin).toHaveBeenCalledWith(principal.accountId, '2026-11', 'station_results', stops, 10);
    expect(addUsageWithin.mock.invocationCallOrder[0]).toBeLessThan(create.mock.invocationCallOrder[0] ?? 0);
  });

  it('refuses a trip whose fuel stops cross the budget and stores nothing', async () => {
    const { deps, create } = fakeDeps({ admitted: false, used: 9 });
    await expect(createTrip(deps, principal, trip.fleetId, body)).rejects.toMatchObject({
      code: 'station_budget_exceeded',
      extensions: { limit: 10, used: 9 },
    });
    expect(create).not.toHaveBeenCalled();
  });

  it('charges nothing for a trip without auto_optimize (no fuel stops planned)', async () => {
    const { deps, addUsageWithin, create } = fakeDeps({ admitted: false, used: 10 });
    await createTrip(deps, principal, trip.fleetId, { ...body, auto_optimize: false });
    expect(addUsageWithin).not.toHaveBeenCalled();
    expect(create).toHaveBeenCalledOnce();
    expect(fuelStopsOf(create.mock.calls[0]?.[0])).toEqual([]);
  });

  it('a refused optimize saves nothing', async () => {
    const { deps, save } = fakeDeps({ admitted: false, used: 10 });
    await expect(optimizeTrip(deps, principal, trip.fleetId, trip.id)).rejects.toMatchObject({
      code: 'station_budget_exceeded',
    });
    expect(save).not.toHaveBeenCalled();
  });

  it('an optimize redone after a lost race is charged once', async () => {
    const { deps, addUsageWithin, save } = fakeDeps({ admitted: true, used: 2 }, ['lost_race', 'stored']);
    const optimized = await optimizeTrip(deps, principal, trip.fleetId, trip.id);
    expect(save).toHaveBeenCalledTimes(2);
    const stops = fuelStopsOf(optimized).length;
    expect(stops).toBeGreaterThan(0);
    expect(fuelStopsOf(save.mock.calls[1]?.[0])).toHaveLength(stops);
    expect(addUsageWithin).toHaveBeenCalledOnce();
    expect(addUsageWithin).toHaveBeenCalledWith(principal.accountId, '2026-11', 'station_results', stops, 10);
  });

  it('a PATCH that moves an auto_optimize trip charges its regenerated stops before saving; a refusal saves nothing', async () => {
    const moved = { destination: { latitude: 35.2, longitude: -101.9 } };
    const charged = fakeDeps({ admitted: true, used: 2 });
    await updateTrip(charged.deps, principal, trip.fleetId, trip.id, moved);
    expect(charged.save).toHaveBeenCalledOnce();
    const stops = fuelStopsOf(charged.save.mock.calls[0]?.[0]).length;
    expect(stops).toBeGreaterThan(0);
    expect(charged.addUsageWithin).toHaveBeenCalledWith(
      principal.accountId,
      '2026-11',
      'station_results',
      stops,
      10,
    );
    expect(charged.addUsageWithin.mock.invocationCallOrder[0]).toBeLessThan(
      charged.save.mock.invocationCallOrder[0] ?? 0,
    );

    const refused = fakeDeps({ admitted: false, used: 10 });
    await expect(updateTrip(refused.deps, principal, trip.fleetId, trip.id, moved)).rejects.toMatchObject({
      code: 'station_budget_exceeded',
    });
    expect(refused.save).not.toHaveBeenCalled();
  });

  it('a PATCH that does not move the trip charges nothing', async () => {
    const { deps, addUsageWithin, save } = fakeDeps({ admitted: true, used: 0 });
    await updateTrip(deps, principal, trip.fleetId, trip.id, { reference: 'LOAD-2' });
    expect(addUsageWithin).not.toHaveBeenCalled();
    expect(save).toHaveBeenCalledOnce();
  });
});
