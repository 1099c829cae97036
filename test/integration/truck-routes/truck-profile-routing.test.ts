import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventRecorderOn } from '#shared/events/wiring/events.ts';
import { provisionFleet, updateActingFleetSettings } from '#shared/fleets/usecases/fleets.ts';
import { createEmbeddedRouter } from '#shared/geo/embedded-router.ts';
import type { RouteRequest, RoutingEngine } from '#shared/geo/routing-engine.ts';
import { startGuidance } from '#shared/guidance/usecases/guidance.ts';
import { createGuidancePlanningDeps } from '#shared/guidance/wiring/guidance-planning.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { ingestLocations } from '#shared/tracking/usecases/ingest.ts';
import { ingestDeps } from '#shared/tracking/wiring/tracking.ts';
import { createVehicle, updateVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { tableStores, vehicleStore } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';
import { guidancePrincipal } from '#test/support/principals.ts';

/**
 * The truck a guidance start routes for, as stored: the vehicle's and the fleet's truck_profile
 * read from DynamoDB Local (after PATCHes), resolved, and handed to the routing engine, a recording
 * wrapper around the embedded one.
 */
const client = testDocumentClient();
const START_MS = Date.parse('2026-11-22T14:00:00Z');
const clock = fixedClock(START_MS);
const DALLAS = { latitude: 32.7767, longitude: -96.797 };
const DENVER = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };

let table: string;
let infra: TestInfrastructure;
const requests: RouteRequest[] = [];

beforeAll(async () => {
  table = await createTestTable(client, 'truck-profile-routing');
  infra = testInfrastructure({ tableName: table, clock });
});
afterAll(() => deleteTestTable(client, table));

function recordingRouter(): RoutingEngine {
  const embedded = createEmbeddedRouter();
  return {
    route: async (request) => {
      requests.push(request);
      return embedded.route(request);
    },
  };
}

describe('a guidance start routes for the stored truck profile', () => {
  it('the vehicle’s members over the fleet’s, the standard truck’s for the rest, as last PATCHed', async () => {
    // Prepare: a fleet of heavy six-axle trucks; a tanker whose profile is changed after creation
    const fleetDeps = { fleets: tableStores(infra).fleets, stage: 'prod' as const, clock };
    const fleet = await provisionFleet(fleetDeps, newId('partner'), {
      name: 'Tankers',
      timezone: 'UTC',
      truck_profile: { axle_count: 6 },
    });
    await updateActingFleetSettings(
      fleetDeps,
      { ownerType: 'company', scopes: ['vehicles:manage'] },
      fleet.id,
      {
        truck_profile: { gross_weight_lbs: 97_000, height_inches: 165 },
      },
    );
    const vehicles = { vehicles: vehicleStore(infra), clock };
    const { vehicle } = await createVehicle(vehicles, fleet.id, {
      external_ref: 'TANKER-9',
      tank_size_gallons: 150,
      estimated_mpg: 6.5,
      truck_profile: { height_inches: 150 },
    });
    await updateVehicle(vehicles, fleet.id, vehicle.id, {
      truck_profile: { hazardous_cargo: ['flammable', 'poison_inhalation'] },
    });
    const ingest = await ingestLocations(ingestDeps(infra), fleet.id, [
      {
        vehicle_id: vehicle.id,
        ...DALLAS,
        recorded_at: new Date(START_MS - 60_000).toISOString(),
        fuel_level_percent: 40,
        speed_mph: 0,
      },
    ]);
    expect(ingest.rejected).toBe(0);
    const deps = {
      ...createGuidancePlanningDeps(infra, {
        events: eventRecorderOn(infra.client, table, 'prod', clock.now),
      }),
      router: recordingRouter(),
    };

    // Act
    await startGuidance(deps, guidancePrincipal(fleet.id), fleet.id, vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 15,
    });

    // Assess
    expect(requests.map((request) => request.truck)).toEqual([
      {
        heightInches: 150,
        widthInches: 102,
        lengthFeet: 70,
        grossWeightLbs: 97_000,
        axleCount: 6,
        hazardousCargo: ['flammable', 'poison_inhalation'],
      },
    ]);
  });
});
