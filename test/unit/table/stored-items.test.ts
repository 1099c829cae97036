import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Account } from '#shared/accounts/domain/account.ts';
import type { AuditEntry } from '#shared/accounts/domain/audit.ts';
import type { ProductionAccessRequest } from '#shared/accounts/domain/production-access.ts';
import { createAccountStore } from '#shared/accounts/store/accounts.ts';
import { createAuditStore } from '#shared/accounts/store/audit-log.ts';
import type { Fleet } from '#shared/fleets/domain/fleet.ts';
import { UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import { createFleetStore } from '#shared/fleets/store/fleets.ts';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import {
  createIntegrationSnapshotStore,
  type HealthSnapshot,
} from '#shared/integration-health/store/integration-snapshots.ts';
import { createCursorCodec } from '#shared/table/cursor.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import { createVehicleStore } from '#shared/vehicles/store/vehicles.ts';

/**
 * The attribute names and values each store writes are a stored format: a deployed table holds
 * items in it. These pin them, item by item, and read each back into the record it was written from.
 */
const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dynamo = mockClient(DynamoDBDocumentClient);
afterEach(() => dynamo.reset());
// The mock patches the class for every file that runs in this worker after this one: put it back.
afterAll(() => dynamo.restore());

const cursors = createCursorCodec('k');

/** The item as DynamoDB hands it back (the document client's options). */
const throughDynamo = (item: Record<string, unknown>) =>
  unmarshall(marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: false }));

const putItems = () => [
  ...dynamo.commandCalls(PutCommand).map((call) => call.args[0].input.Item),
  ...dynamo
    .commandCalls(TransactWriteCommand)
    .flatMap((call) => call.args[0].input.TransactItems ?? [])
    .map((item) => item.Put?.Item)
    .filter((item) => item !== undefined),
];

const vehicle: Vehicle = {
  id: 'veh_1',
  fleetId: 'flt_1',
  externalRef: 'truck-7',
  linkedExternalRefs: ['truck-7b'],
  name: 'Unit 7',
  vin: '1FUJGLDR12LM12345',
  tankSizeGallons: 150,
  estimatedMpg: 6.5,
  licensePlate: null,
  fuelTaxTreatment: 'pump',
  truckProfile: { ...UNSET_TRUCK_PROFILE, heightInches: 150, hazardousCargo: ['flammable'] },
  status: 'active',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-02T00:00:00.000Z',
  version: 3,
};

describe('the vehicle item', () => {
  it('stores each field under its snake_case attribute, and reads back the vehicle', async () => {
    // Prepare
    dynamo.on(TransactWriteCommand).resolves({});
    const store = createVehicleStore(documents, 't', cursors);

    // Act
    await store.create(vehicle);
    const [item] = putItems();

    // Assess
    expect(item).toStrictEqual({
      pk: 'FLEET#flt_1',
      sk: 'VEH#veh_1',
      gsi1pk: 'FLEET#flt_1#VEH#active',
      gsi1sk: 'VEH#veh_1',
      id: 'veh_1',
      fleet_id: 'flt_1',
      external_ref: 'truck-7',
      linked_external_refs: ['truck-7b'],
      name: 'Unit 7',
      vin: '1FUJGLDR12LM12345',
      tank_size_gallons: 150,
      estimated_mpg: 6.5,
      license_plate: null,
      fuel_tax_treatment: 'pump',
      truck_profile: {
        height_inches: 150,
        width_inches: null,
        length_feet: null,
        gross_weight_lbs: null,
        axle_count: null,
        hazardous_cargo: ['flammable'],
      },
      status: 'active',
      created_at: '2026-11-01T00:00:00.000Z',
      updated_at: '2026-11-02T00:00:00.000Z',
      version: 3,
    });
    dynamo.on(GetCommand).resolves({ Item: throughDynamo(item as Record<string, unknown>) });
    expect(await store.get('flt_1', 'veh_1')).toEqual(vehicle);
  });

  it('reads an item without the optional attributes as nothing set', async () => {
    // Prepare
    dynamo.on(GetCommand).resolves({
      Item: {
        id: 'veh_1',
        fleet_id: 'flt_1',
        external_ref: 'truck-7',
        status: 'active',
        created_at: '2026-11-01T00:00:00.000Z',
        updated_at: '2026-11-01T00:00:00.000Z',
      },
    });

    // Act
    const read = await createVehicleStore(documents, 't', cursors).get('flt_1', 'veh_1');

    // Assess
    expect(read).toEqual({
      ...vehicle,
      linkedExternalRefs: [],
      name: null,
      vin: null,
      tankSizeGallons: null,
      estimatedMpg: null,
      licensePlate: null,
      fuelTaxTreatment: null,
      truckProfile: UNSET_TRUCK_PROFILE,
      updatedAt: '2026-11-01T00:00:00.000Z',
      version: 1,
    });
  });
});

const fleet: Fleet = {
  id: 'flt_1',
  name: 'Acme Haulage',
  externalRef: 'acme',
  contactEmail: null,
  timezone: 'America/Chicago',
  status: 'active',
  defaultMinArrivalFuelPercent: 15,
  assumedDepartureFuelPercent: 80,
  fuelTaxTreatment: 'ifta',
  fuelProgram: {
    rule: 'preferred',
    chains: [{ chain: 'pilot_flying_j', discountCents: 12 }],
    offProgramPenaltyCents: 5,
    updatedAt: '2026-11-01T00:00:00.000Z',
  },
  truckProfile: { ...UNSET_TRUCK_PROFILE, axleCount: 6 },
  partnerId: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-02T00:00:00.000Z',
};

describe('the fleet item', () => {
  it('stores each field under its snake_case attribute, and reads back the fleet', async () => {
    // Prepare
    dynamo.on(PutCommand).resolves({});
    const store = createFleetStore(documents, 't', cursors);

    // Act
    await store.putCompanyFleet(fleet);
    const [item] = putItems();

    // Assess
    expect(item).toStrictEqual({
      pk: 'FLEET#flt_1',
      sk: 'FLEET',
      id: 'flt_1',
      name: 'Acme Haulage',
      external_ref: 'acme',
      contact_email: null,
      timezone: 'America/Chicago',
      status: 'active',
      default_min_arrival_fuel_percent: 15,
      assumed_departure_fuel_percent: 80,
      fuel_tax_treatment: 'ifta',
      fuel_program: {
        rule: 'preferred',
        chains: [{ chain: 'pilot_flying_j', discount_cents: 12 }],
        off_program_penalty_cents: 5,
        updated_at: '2026-11-01T00:00:00.000Z',
      },
      truck_profile: {
        height_inches: null,
        width_inches: null,
        length_feet: null,
        gross_weight_lbs: null,
        axle_count: 6,
        hazardous_cargo: null,
      },
      partner_id: null,
      created_at: '2026-11-01T00:00:00.000Z',
      updated_at: '2026-11-02T00:00:00.000Z',
    });
    dynamo.on(GetCommand).resolves({ Item: throughDynamo(item as Record<string, unknown>) });
    expect(await store.get('flt_1')).toEqual(fleet);
  });

  it('reads an item without the optional settings as the defaults', async () => {
    // Prepare
    dynamo.on(GetCommand).resolves({
      Item: {
        id: 'flt_1',
        name: 'Acme Haulage',
        timezone: 'America/Chicago',
        status: 'active',
        created_at: '2026-11-01T00:00:00.000Z',
        updated_at: '2026-11-01T00:00:00.000Z',
      },
    });

    // Act
    const read = await createFleetStore(documents, 't', cursors).get('flt_1');

    // Assess
    expect(read).toEqual({
      ...fleet,
      externalRef: null,
      defaultMinArrivalFuelPercent: 10,
      assumedDepartureFuelPercent: 100,
      fuelTaxTreatment: 'ifta',
      fuelProgram: NO_FUEL_PROGRAM,
      truckProfile: UNSET_TRUCK_PROFILE,
      updatedAt: '2026-11-01T00:00:00.000Z',
    });
  });

  it('sets each changed setting under its attribute, truck profile members one by one', async () => {
    // Prepare
    dynamo.on(UpdateCommand).resolves({});

    // Act
    await createFleetStore(documents, 't', cursors).update(
      'flt_1',
      {
        contactEmail: 'ops@acme.test',
        assumedDepartureFuelPercent: 70,
        fuelProgram: { ...NO_FUEL_PROGRAM, rule: 'required', updatedAt: '2026-11-03T00:00:00.000Z' },
        truckProfile: { lengthFeet: 65, hazardousCargo: ['gas'] },
      },
      '2026-11-03T00:00:00.000Z',
    );
    const [, change] = dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input);

    // Assess
    expect(change?.UpdateExpression).toBe(
      'SET updated_at = :updated_at, #contact_email = :contact_email, ' +
        '#assumed_departure_fuel_percent = :assumed_departure_fuel_percent, #fuel_program = :fuel_program, ' +
        '#truck_profile.#tp_length_feet = :tp_length_feet, #truck_profile.#tp_hazardous_cargo = :tp_hazardous_cargo',
    );
    expect(change?.ExpressionAttributeNames).toStrictEqual({
      '#contact_email': 'contact_email',
      '#assumed_departure_fuel_percent': 'assumed_departure_fuel_percent',
      '#fuel_program': 'fuel_program',
      '#truck_profile': 'truck_profile',
      '#tp_length_feet': 'length_feet',
      '#tp_hazardous_cargo': 'hazardous_cargo',
      '#fleet_status': 'status',
    });
    expect(change?.ExpressionAttributeValues).toStrictEqual({
      ':updated_at': '2026-11-03T00:00:00.000Z',
      ':active': 'active',
      ':contact_email': 'ops@acme.test',
      ':assumed_departure_fuel_percent': 70,
      ':fuel_program': {
        rule: 'required',
        chains: [],
        off_program_penalty_cents: 0,
        updated_at: '2026-11-03T00:00:00.000Z',
      },
      ':tp_length_feet': 65,
      ':tp_hazardous_cargo': ['gas'],
    });
  });
});

const account: Account = {
  id: 'acct_1',
  type: 'company',
  name: 'Acme',
  contactEmail: 'ops@acme.test',
  timezone: 'America/Chicago',
  planName: 'sandbox',
  liveFleetId: null,
  sandboxFleetId: 'flt_sbx',
  productionAccess: { status: 'pending', requestId: 'par_1', reason: null, decidedAt: null },
  createdAt: '2026-11-01T00:00:00.000Z',
};

const request: ProductionAccessRequest = {
  id: 'par_1',
  accountId: 'acct_1',
  status: 'pending',
  useCase: 'fuel guidance for 40 trucks',
  expectedVehicles: 40,
  contactEmail: 'ops@acme.test',
  requestedAt: '2026-11-02T00:00:00.000Z',
  requestedBy: 'key_1',
  decidedAt: null,
  decidedBy: null,
  planName: null,
  reason: null,
};

describe('the account and production-access request items', () => {
  it('store each field under its snake_case attribute, and read back the account and the request', async () => {
    // Prepare
    dynamo.on(TransactWriteCommand).resolves({});
    const store = createAccountStore(documents, 't', cursors);

    // Act
    await store.create(account);
    await store.fileRequest(request, 'none');
    const [accountItem, fleetAccountItem, requestItem] = putItems();

    // Assess
    expect(accountItem).toStrictEqual({
      pk: 'ACCOUNT#acct_1',
      sk: 'ACCOUNT',
      id: 'acct_1',
      type: 'company',
      name: 'Acme',
      contact_email: 'ops@acme.test',
      timezone: 'America/Chicago',
      plan_name: 'sandbox',
      live_fleet_id: null,
      sandbox_fleet_id: 'flt_sbx',
      production_access: { status: 'pending', request_id: 'par_1', reason: null, decided_at: null },
      created_at: '2026-11-01T00:00:00.000Z',
      gsi1pk: 'ACCOUNTS#company',
      gsi1sk: '2026-11-01T00:00:00.000Z',
    });
    expect(fleetAccountItem).toStrictEqual({
      pk: 'FLEETACCOUNT#flt_sbx',
      sk: 'FLEETACCOUNT',
      account_id: 'acct_1',
    });
    expect(requestItem).toStrictEqual({
      pk: 'PAR#par_1',
      sk: 'PAR',
      gsi1pk: 'PAR#pending',
      gsi1sk: '2026-11-02T00:00:00.000Z#par_1',
      id: 'par_1',
      account_id: 'acct_1',
      status: 'pending',
      use_case: 'fuel guidance for 40 trucks',
      expected_vehicles: 40,
      contact_email: 'ops@acme.test',
      requested_at: '2026-11-02T00:00:00.000Z',
      requested_by: 'key_1',
      decided_at: null,
      decided_by: null,
      plan_name: null,
      reason: null,
    });
    const summary = dynamo.commandCalls(TransactWriteCommand)[1]?.args[0].input.TransactItems?.[1]?.Update;
    expect(summary?.ExpressionAttributeValues?.[':summary']).toStrictEqual({
      status: 'pending',
      request_id: 'par_1',
      reason: null,
      decided_at: null,
    });
    dynamo
      .on(GetCommand)
      .callsFake((input) =>
        input.Key.sk === 'ACCOUNT'
          ? { Item: throughDynamo(accountItem as Record<string, unknown>) }
          : { Item: throughDynamo(requestItem as Record<string, unknown>) },
      );
    expect(await store.get('acct_1')).toEqual(account);
    expect(await store.getRequest('par_1')).toEqual(request);
  });

  it('reads an account without a production-access summary as none', async () => {
    // Prepare
    dynamo.on(GetCommand).resolves({
      Item: {
        id: 'ptn_1',
        type: 'partner',
        name: 'Partner',
        plan_name: 'growth',
        created_at: '2026-11-01T00:00:00.000Z',
      },
    });

    // Act
    const read = await createAccountStore(documents, 't').get('ptn_1');

    // Assess
    expect(read).toEqual({
      id: 'ptn_1',
      type: 'partner',
      name: 'Partner',
      contactEmail: null,
      timezone: null,
      planName: 'growth',
      liveFleetId: null,
      sandboxFleetId: null,
      productionAccess: { status: 'none', requestId: null, reason: null, decidedAt: null },
      createdAt: '2026-11-01T00:00:00.000Z',
    });
  });

  it('sets every decided field of a request under its attribute', async () => {
    // Prepare
    dynamo.on(TransactWriteCommand).resolves({});
    const decided: ProductionAccessRequest = {
      ...request,
      status: 'approved',
      decidedAt: '2026-11-03T00:00:00.000Z',
      decidedBy: 'operator@example.test',
      planName: 'growth',
    };

    // Act
    await createAccountStore(documents, 't').decideRequest(decided, 'pending', 'growth');
    const update = dynamo.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Update;

    // Assess
    expect(update?.ExpressionAttributeNames).toStrictEqual({
      '#gsi1pk': 'gsi1pk',
      '#gsi1sk': 'gsi1sk',
      '#account_id': 'account_id',
      '#status': 'status',
      '#use_case': 'use_case',
      '#expected_vehicles': 'expected_vehicles',
      '#contact_email': 'contact_email',
      '#requested_at': 'requested_at',
      '#requested_by': 'requested_by',
      '#decided_at': 'decided_at',
      '#decided_by': 'decided_by',
      '#plan_name': 'plan_name',
      '#reason': 'reason',
    });
    expect(update?.ExpressionAttributeValues).toMatchObject({
      ':gsi1pk': 'PAR#approved',
      ':status': 'approved',
      ':decided_at': '2026-11-03T00:00:00.000Z',
      ':decided_by': 'operator@example.test',
      ':plan_name': 'growth',
    });
  });
});

describe('the audit entry item', () => {
  it('stores each field under its snake_case attribute, and lists back the entry', async () => {
    // Prepare
    dynamo.on(PutCommand).resolves({});
    const store = createAuditStore(documents, 't', cursors);
    const entry: Omit<AuditEntry, 'id'> = {
      at: '2026-11-02T00:00:00.000Z',
      actor: { type: 'operator', id: 'operator@example.test' },
      action: 'plan.updated',
      accountId: 'acct_1',
      target: { type: 'account', id: 'acct_1' },
      reason: null,
      details: { plan: 'growth' },
    };

    // Act
    await store.record(entry);
    const [item] = putItems() as Record<string, unknown>[];

    // Assess
    const id = item?.id as string;
    expect(id).toMatch(/^aud/);
    expect(item).toStrictEqual({
      pk: 'AUDIT',
      sk: `2026-11-02T00:00:00.000Z#${id}`,
      gsi1pk: 'AUDIT#acct_1',
      gsi1sk: `2026-11-02T00:00:00.000Z#${id}`,
      id,
      at: '2026-11-02T00:00:00.000Z',
      actor: { type: 'operator', id: 'operator@example.test' },
      action: 'plan.updated',
      account_id: 'acct_1',
      target: { type: 'account', id: 'acct_1' },
      reason: null,
      details: { plan: 'growth' },
    });
    dynamo.on(QueryCommand).resolves({ Items: [throughDynamo(item as Record<string, unknown>)] });
    expect((await store.list({}, 10, undefined)).data).toEqual([{ id, ...entry }]);
  });
});

describe('the health snapshot item', () => {
  it('stores each field under its snake_case attribute, and reads back the snapshot', async () => {
    // Prepare
    dynamo.on(PutCommand).resolves({});
    const store = createIntegrationSnapshotStore(documents, 't');
    const snapshot: HealthSnapshot = {
      fleetId: 'flt_1',
      day: '2026-11-23',
      checkedAt: '2026-11-23T06:00:00.000Z',
      score: 87,
      grade: 'B',
      checks: { breadcrumb_cadence: 'pass', silent_vehicles: 'warn' },
      vehiclesActive: 12,
      vehiclesReporting24h: 11,
      breadcrumbs24h: 9_000,
    };

    // Act
    await store.put(snapshot);
    const [item] = putItems();

    // Assess
    expect(item).toStrictEqual({
      pk: 'HEALTH#flt_1',
      sk: 'SNAP#2026-11-23',
      fleet_id: 'flt_1',
      day: '2026-11-23',
      checked_at: '2026-11-23T06:00:00.000Z',
      score: 87,
      grade: 'B',
      checks: { breadcrumb_cadence: 'pass', silent_vehicles: 'warn' },
      vehicles_active: 12,
      vehicles_reporting_24h: 11,
      breadcrumbs_24h: 9_000,
      // 95 days after 2026-11-23.
      expires_at: Date.parse('2027-02-26T00:00:00.000Z') / 1000,
    });
    dynamo.on(QueryCommand).resolves({ Items: [throughDynamo(item as Record<string, unknown>)] });
    expect(await store.range('flt_1', '2026-11-01', '2026-11-30')).toEqual([snapshot]);
  });
});
