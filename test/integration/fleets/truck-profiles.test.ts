import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import { createFleetPlanningReader, createFleetStore, fleetKey } from '#shared/fleets/store/fleets.ts';
import { provisionFleet, updateActingFleetSettings, updateFleet } from '#shared/fleets/usecases/fleets.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { createCursorCodec } from '#shared/table/cursor.ts';
import { createVehicleStore, vehicleKey } from '#shared/vehicles/store/vehicles.ts';
import { createVehicle, findVehicle, updateVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';

// The truck profile as vehicles and fleets store it (`truck_profile` map on their items), against
// DynamoDB Local: written, merged member by member, cleared, and read from items written before it.

const client = testDocumentClient();
const clock = fixedClock(Date.parse('2026-11-21T12:00:00Z'));
let table: string;
let vehicleDeps: Parameters<typeof createVehicle>[0];
let fleetDeps: Parameters<typeof provisionFleet>[0];

beforeAll(async () => {
  table = await createTestTable(client, 'truck-profiles');
  const cursors = createCursorCodec('test-key');
  vehicleDeps = { vehicles: createVehicleStore(client, table, cursors), clock };
  fleetDeps = { fleets: createFleetStore(client, table, cursors), stage: 'prod', clock };
});
afterAll(() => deleteTestTable(client, table));

const owner = { ownerType: 'company' as const, scopes: ['fleets:manage' as const] };

describe('a vehicle’s truck profile', () => {
  it('is stored on create and read back member for member', async () => {
    // Prepare
    const fleetId = newId('fleet');

    // Act
    const { vehicle } = await createVehicle(vehicleDeps, fleetId, {
      external_ref: 'TANKER-1',
      truck_profile: { height_inches: 150, hazardous_cargo: ['flammable'] },
    });

    // Assess
    expect((await findVehicle(vehicleDeps, fleetId, vehicle.id)).truckProfile).toEqual({
      ...UNSET_TRUCK_PROFILE,
      heightInches: 150,
      hazardousCargo: ['flammable'],
    });
    const { Item } = await client.send(
      new GetCommand({ TableName: table, Key: vehicleKey(fleetId, vehicle.id) }),
    );
    expect(Item?.truck_profile).toEqual({
      height_inches: 150,
      width_inches: null,
      length_feet: null,
      gross_weight_lbs: null,
      axle_count: null,
      hazardous_cargo: ['flammable'],
    });
  });

  it('PATCH merges member by member, null clears one, truck_profile: null clears all', async () => {
    // Prepare
    const fleetId = newId('fleet');
    const { vehicle } = await createVehicle(vehicleDeps, fleetId, {
      external_ref: 'TANKER-2',
      truck_profile: { height_inches: 150, length_feet: 72, hazardous_cargo: ['flammable'] },
    });

    // Act
    const merged = await updateVehicle(vehicleDeps, fleetId, vehicle.id, {
      truck_profile: { axle_count: 6, length_feet: null },
    });
    const cleared = await updateVehicle(vehicleDeps, fleetId, vehicle.id, { truck_profile: null });

    // Assess
    expect(merged.truckProfile).toEqual({
      ...UNSET_TRUCK_PROFILE,
      heightInches: 150,
      axleCount: 6,
      hazardousCargo: ['flammable'],
    });
    expect(merged.version).toBe(vehicle.version + 1);
    expect(cleared.truckProfile).toEqual(UNSET_TRUCK_PROFILE);
    expect((await findVehicle(vehicleDeps, fleetId, vehicle.id)).truckProfile).toEqual(UNSET_TRUCK_PROFILE);
  });

  it('a PATCH that sets what is already set writes nothing', async () => {
    // Prepare
    const fleetId = newId('fleet');
    const { vehicle } = await createVehicle(vehicleDeps, fleetId, {
      external_ref: 'TANKER-3',
      truck_profile: { hazardous_cargo: ['gas', 'poison'] },
    });

    // Act
    const same = await updateVehicle(vehicleDeps, fleetId, vehicle.id, {
      truck_profile: { hazardous_cargo: ['poison', 'gas'] },
    });

    // Assess
    expect(same.version).toBe(vehicle.version);
    expect(same.updatedAt).toBe(vehicle.updatedAt);
  });

  it('a vehicle item written before profiles existed reads as nothing set', async () => {
    // Prepare: the item as it was stored before, without the attribute
    const fleetId = newId('fleet');
    const { vehicle } = await createVehicle(vehicleDeps, fleetId, { external_ref: 'OLD-1' });
    await client.send(
      new UpdateCommand({
        TableName: table,
        Key: vehicleKey(fleetId, vehicle.id),
        UpdateExpression: 'REMOVE truck_profile',
      }),
    );

    // Act
    const read = await findVehicle(vehicleDeps, fleetId, vehicle.id);
    const patched = await updateVehicle(vehicleDeps, fleetId, vehicle.id, {
      truck_profile: { width_inches: 96 },
    });

    // Assess
    expect(read.truckProfile).toEqual(UNSET_TRUCK_PROFILE);
    expect(patched.truckProfile).toEqual({ ...UNSET_TRUCK_PROFILE, widthInches: 96 });
  });
});

describe('a fleet’s truck profile', () => {
  it('is stored when the partner provisions the fleet with one', async () => {
    // Act
    const fleet = await provisionFleet(fleetDeps, newId('partner'), {
      name: 'Heavy Haul',
      timezone: 'America/Chicago',
      truck_profile: { gross_weight_lbs: 97_000, axle_count: 6 },
    });

    // Assess
    expect((await fleetDeps.fleets.get(fleet.id))?.truckProfile).toEqual({
      ...UNSET_TRUCK_PROFILE,
      grossWeightLbs: 97_000,
      axleCount: 6,
    });
  });

  it('PATCH /v1/fleet and PATCH /v1/fleets/{id} merge member by member; null clears', async () => {
    // Prepare
    const partnerId = newId('partner');
    const fleet = await provisionFleet(fleetDeps, partnerId, {
      name: 'Heavy Haul',
      timezone: 'America/Chicago',
      truck_profile: { gross_weight_lbs: 97_000, axle_count: 6, height_inches: 165 },
    });

    // Act
    const bySettings = await updateActingFleetSettings(fleetDeps, owner, fleet.id, {
      truck_profile: { height_inches: null, hazardous_cargo: [] },
    });
    const byPartner = await updateFleet(fleetDeps, partnerId, fleet.id, {
      truck_profile: { length_feet: 75 },
    });

    // Assess
    expect(bySettings.truckProfile).toEqual({
      ...UNSET_TRUCK_PROFILE,
      grossWeightLbs: 97_000,
      axleCount: 6,
      hazardousCargo: [],
    });
    expect(byPartner.truckProfile).toEqual({
      ...UNSET_TRUCK_PROFILE,
      grossWeightLbs: 97_000,
      axleCount: 6,
      lengthFeet: 75,
      hazardousCargo: [],
    });
  });

  it('truck_profile: null clears every member', async () => {
    // Prepare
    const fleet = await provisionFleet(fleetDeps, newId('partner'), {
      name: 'Heavy Haul',
      timezone: 'America/Chicago',
      truck_profile: { gross_weight_lbs: 97_000, hazardous_cargo: ['explosive'] },
    });

    // Act
    const cleared = await updateActingFleetSettings(fleetDeps, owner, fleet.id, { truck_profile: null });

    // Assess
    expect(cleared.truckProfile).toEqual(UNSET_TRUCK_PROFILE);
  });

  it('concurrent PATCHes of different members both hold', async () => {
    // Prepare
    const fleet = await provisionFleet(fleetDeps, newId('partner'), {
      name: 'Heavy Haul',
      timezone: 'America/Chicago',
    });

    // Act
    await Promise.all([
      updateActingFleetSettings(fleetDeps, owner, fleet.id, { truck_profile: { height_inches: 160 } }),
      updateActingFleetSettings(fleetDeps, owner, fleet.id, { truck_profile: { width_inches: 100 } }),
      updateActingFleetSettings(fleetDeps, owner, fleet.id, { truck_profile: { axle_count: 7 } }),
    ]);

    // Assess
    expect((await fleetDeps.fleets.get(fleet.id))?.truckProfile).toEqual({
      ...UNSET_TRUCK_PROFILE,
      heightInches: 160,
      widthInches: 100,
      axleCount: 7,
    });
  });

  it('a fleet item written before profiles existed reads as nothing set, and takes a PATCH', async () => {
    // Prepare: a fleet item as stored before, without the attribute
    const fleetId = newId('fleet');
    await client.send(
      new PutCommand({
        TableName: table,
        Item: {
          ...fleetKey(fleetId),
          id: fleetId,
          name: 'Old Fleet',
          external_ref: null,
          contact_email: null,
          timezone: 'UTC',
          status: 'active',
          partner_id: null,
          created_at: '2026-01-01T00:00:00.000000Z',
          updated_at: '2026-01-01T00:00:00.000000Z',
        },
      }),
    );
    const reader = createFleetPlanningReader(client, table);

    // Act
    const before = await fleetDeps.fleets.get(fleetId);
    const readBefore = (await reader.get(fleetId)).truckProfile;
    const patched = await updateActingFleetSettings(fleetDeps, owner, fleetId, {
      truck_profile: { height_inches: 150 },
    });

    // Assess
    expect(before?.truckProfile).toEqual(UNSET_TRUCK_PROFILE);
    expect(readBefore).toEqual(UNSET_TRUCK_PROFILE);
    expect(patched.truckProfile).toEqual({ ...UNSET_TRUCK_PROFILE, heightInches: 150 });
    expect((await reader.get(fleetId)).truckProfile).toEqual({ ...UNSET_TRUCK_PROFILE, heightInches: 150 });
  });

  it('a PATCH of a fleet that does not exist is 404 and writes no item', async () => {
    // Prepare
    const fleetId = newId('fleet');

    // Act
    const error = await updateActingFleetSettings(fleetDeps, owner, fleetId, {
      truck_profile: { height_inches: 150 },
    }).catch((e: unknown) => e);

    // Assess
    expect(error).toMatchObject({ code: 'resource_not_found' });
    const { Item } = await client.send(new GetCommand({ TableName: table, Key: fleetKey(fleetId) }));
    expect(Item).toBeUndefined();
  });
});
