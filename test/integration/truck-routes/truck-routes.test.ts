import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import { createCounters } from '#shared/plans/store/counters.ts';
import { createPlanStore } from '#shared/plans/store/plans.ts';
import { latestPositionKey } from '#shared/tracking/store/vehicle-positions.ts';
import { ingestLocations } from '#shared/tracking/usecases/ingest.ts';
import { ingestDeps } from '#shared/tracking/wiring/tracking.ts';
import { createRoute, getRoute } from '#shared/truck-routes/usecases/truck-routes.ts';
import { truckRouteDeps } from '#shared/truck-routes/wiring/truck-routes.ts';
import type { VehicleStore } from '#shared/vehicles/store/vehicles.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleStore } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { testInfrastructure } from '#test/support/infrastructure.ts';

const client = testDocumentClient();
const clock = fixedClock(Date.parse('2026-11-21T12:00:00Z'));
let table: string;
let deps: Parameters<typeof createRoute>[0];
let vehicles: VehicleStore;
let infra: ReturnType<typeof testInfrastructure>;
const fleetId = newId('fleet');
const principal: Principal = {
  keyId: 'key_route_test',
  keyName: 'test',
  ownerType: 'company',
  accountId: `cmp_of_${fleetId}`,
  partnerId: null,
  ownFleetId: fleetId,
  mode: 'live',
  scopes: ['guidance:manage'],
  planName: 'local-dev',
  keyCreatedAt: '2026-11-01T00:00:00.000000Z',
};

beforeAll(async () => {
  table = await createTestTable(client, 'routes');
  infra = testInfrastructure({ tableName: table, clock });
  deps = truckRouteDeps(infra);
  vehicles = vehicleStore(infra);
});
afterAll(() => deleteTestTable(client, table));

describe('the vehicle-shortcut form against the stores', () => {
  it("plans from the vehicle's latest position and fuel level, with its tank and mpg", async () => {
    const { vehicle } = await createVehicle({ vehicles, clock }, fleetId, {
      external_ref: 'ROUTE-1',
      tank_size_gallons: 150,
      estimated_mpg: 6,
    });
    // Written the way the ingest issue will write it: Omaha, 40% in the tank.
    await client.send(
      new PutCommand({
        TableName: table,
        Item: {
          ...latestPositionKey(fleetId, vehicle.id),
          latitude: 41.2565,
          longitude: -95.9345,
          recorded_at: '2026-11-21T11:58:00.000000Z',
          fuel_level_percent: 40,
        },
      }),
    );
    const route = await createRoute(deps, principal, fleetId, {
      vehicle_id: 'ext:ROUTE-1',
      destination: { latitude: 39.7392, longitude: -104.9903, name: 'Denver' },
      min_arrival_fuel_percent: 15,
      corridor_width_miles: 2,
    });
    expect(route.vehicle_id).toBe(vehicle.id);
    expect(route.origin).toEqual({ latitude: 41.2565, longitude: -95.9345, name: null });
    expect(route.fuel).toMatchObject({ tank_size_gallons: 150, estimated_mpg: 6, start_fuel_percent: 40 });
    // Omaha → Denver is ~540 miles (90 gal at 6 mpg); 60 gal aboard, so the plan must buy.
    expect(route.plan.status).toBe('ok');
    expect(route.plan.total_gallons).toBeGreaterThan(40);

    // Stored as answered, by createRoute itself.
    expect(await getRoute(deps, fleetId, route.id)).toEqual(route);
    await expect(getRoute(deps, newId('fleet'), route.id)).rejects.toMatchObject({
      code: 'resource_not_found',
    });
  });

  it('projects the last reported level when the latest breadcrumb has none, before the worker has run', async () => {
    const { vehicle } = await createVehicle({ vehicles, clock }, fleetId, {
      external_ref: 'ROUTE-2',
      tank_size_gallons: 150,
      estimated_mpg: 6,
    });
    // Omaha with 40 %, then 0.5° (about 26 miles) west without a level: ingested, not yet consumed.
    const ingested = await ingestLocations(ingestDeps(infra), fleetId, [
      {
        vehicle_id: vehicle.id,
        latitude: 41.2565,
        longitude: -95.9345,
        recorded_at: '2026-11-21T11:20:00Z',
        fuel_level_percent: 40,
      },
      { vehicle_id: vehicle.id, latitude: 41.2565, longitude: -96.4345, recorded_at: '2026-11-21T11:55:00Z' },
    ]);
    expect(ingested.rejected).toBe(0);
    const route = await createRoute(deps, principal, fleetId, {
      vehicle_id: vehicle.id,
      destination: { latitude: 39.7392, longitude: -104.9903, name: 'Denver' },
      min_arrival_fuel_percent: 15,
      corridor_width_miles: 2,
    });
    // 26 great-circle miles × 1.1 road factor ÷ 6 mpg = 4.8 gal of 150: 3.2 points.
    expect(route.fuel).toMatchObject({
      fuel_level_source: 'projected',
      fuel_level_as_of: '2026-11-21T11:55:00.000000Z',
    });
    expect(route.fuel.start_fuel_percent).toBeGreaterThan(36);
    expect(route.fuel.start_fuel_percent).toBeLessThan(38);
    expect(route.plan.status).toBe('ok');
  });

  it("assumes the fleet's departure level for a vehicle that never reported one", async () => {
    const { vehicle } = await createVehicle({ vehicles, clock }, fleetId, {
      external_ref: 'ROUTE-3',
      tank_size_gallons: 150,
      estimated_mpg: 6,
    });
    await ingestLocations(ingestDeps(infra), fleetId, [
      { vehicle_id: vehicle.id, latitude: 41.2565, longitude: -95.9345, recorded_at: '2026-11-21T11:58:00Z' },
    ]);
    const route = await createRoute(deps, principal, fleetId, {
      vehicle_id: vehicle.id,
      destination: { latitude: 39.7392, longitude: -104.9903 },
      min_arrival_fuel_percent: 15,
      corridor_width_miles: 2,
    });
    // No fleet record here: the documented default, a full tank.
    expect(route.fuel).toMatchObject({
      start_fuel_percent: 100,
      fuel_level_source: 'assumed',
      fuel_level_as_of: '2026-11-21T11:58:00.000000Z',
    });
  });
});

describe('the station-query budget of a route', () => {
  it('refuses a route whose stops would cross the budget before storing it, charging nothing', async () => {
    await createPlanStore(client, table).put({
      name: 'routes-tiny-budget',
      rateLimitPerMin: 1_000,
      monthlyQuota: {},
      stationQueryBudget: 0,
      priceQueryCap: 25,
    });
    const tinyFleet = newId('fleet');
    const tiny: Principal = {
      ...principal,
      accountId: `cmp_of_${tinyFleet}`,
      ownFleetId: tinyFleet,
      planName: 'routes-tiny-budget',
    };
    const put = vi.fn(deps.routes.put);

    // Omaha → Denver on a third of a tank must buy: the plan has stops, each a station result.
    const refused = await createRoute({ ...deps, routes: { ...deps.routes, put } }, tiny, tinyFleet, {
      origin: { latitude: 41.2565, longitude: -95.9345 },
      destination: { latitude: 39.7392, longitude: -104.9903 },
      tank_size_gallons: 150,
      estimated_mpg: 6,
      fuel_level_percent: 30,
      min_arrival_fuel_percent: 15,
      corridor_width_miles: 2,
    }).catch((error: unknown) => error);

    expect(refused).toMatchObject({ code: 'station_budget_exceeded', extensions: { limit: 0, used: 0 } });
    expect(put).not.toHaveBeenCalled();
    expect(await createCounters(client, table).readUsage(tiny.accountId, '2026-11')).toEqual({});
  });
});
