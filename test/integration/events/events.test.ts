import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventRecorderOn } from '#shared/events/wiring/events.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { createCursorCodec } from '#shared/table/cursor.ts';
import { VEHICLE_REF_TTL_MS } from '#shared/vehicles/store/vehicle-refs.ts';
import { createVehicleStore } from '#shared/vehicles/store/vehicles.ts';
import { createVehicle, updateVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import type { WebhookEndpoint } from '#shared/webhooks/domain/endpoint.ts';
import { deliveryDeps, eventRecorder } from '#shared/webhooks/wiring/webhooks.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { testInfrastructure } from '#test/support/infrastructure.ts';

const client = testDocumentClient();
const _cursors = createCursorCodec('k');
let prodTable: string;
let sandboxTable: string;

beforeAll(async () => {
  [prodTable, sandboxTable] = await Promise.all([
    createTestTable(client, 'events-prod'),
    createTestTable(client, 'events-sbx'),
  ]);
});
afterAll(() => Promise.all([deleteTestTable(client, prodTable), deleteTestTable(client, sandboxTable)]));

const endpointFor = (fleetId: string): WebhookEndpoint => ({
  id: newId('webhookEndpoint'),
  owner: { kind: 'fleet', fleetId },
  url: 'https://93.184.216.34/hook',
  eventTypes: ['*'],
  description: null,
  status: 'active',
  disabledReason: null,
  secrets: [{ value: 'whsec_x', expiresAtMs: null }],
  consecutiveFailedDeliveries: 0,
  healthySinceMs: 0,
  createdAt: '2026-11-21T00:00:00.000000Z',
  updatedAt: '2026-11-21T00:00:00.000000Z',
});

describe('the events module', () => {
  it('gives concurrent events of one fleet distinct, gap-free, increasing sequence numbers', async () => {
    const recorder = eventRecorderOn(client, prodTable, 'prod');
    const fleetId = newId('fleet');
    const events = await Promise.all(
      Array.from({ length: 25 }, (_, i) => recorder.record(fleetId, 'vehicle.online', { n: i })),
    );
    expect(events.map((e) => e.sequence).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    // Another fleet counts on its own.
    expect((await recorder.record(newId('fleet'), 'vehicle.online', {})).sequence).toBe(1);
  });

  it('records an occurrence once per dedupe key, even when the same worker input runs twice at once', async () => {
    let announced = 0;
    const recorder = eventRecorderOn(client, prodTable, 'prod', Date.now, async () => {
      announced += 1;
    });
    const fleetId = newId('fleet');
    const [first, second] = await Promise.all([
      recorder.record(fleetId, 'vehicle.fuel_low', { n: 1 }, { dedupeKey: 'fuel_low:veh_1:1000' }),
      recorder.record(fleetId, 'vehicle.fuel_low', { n: 1 }, { dedupeKey: 'fuel_low:veh_1:1000' }),
    ]);
    expect(second).toEqual(first);
    const again = await recorder.record(
      fleetId,
      'vehicle.fuel_low',
      { n: 1 },
      { dedupeKey: 'fuel_low:veh_1:1000' },
    );
    expect(again.id).toBe(first.id);
    expect(announced).toBe(1);
    // Another key is another occurrence, numbered next: the duplicate burned no sequence number.
    const other = await recorder.record(
      fleetId,
      'vehicle.fuel_low',
      {},
      { dedupeKey: 'fuel_low:veh_1:2000' },
    );
    expect(other.sequence).toBe(first.sequence + 1);
  });

  it('announces a deduplicated event again when its first record stopped before the fan-out finished', async () => {
    const announced: string[] = [];
    let failNext = true;
    const recorder = eventRecorderOn(client, prodTable, 'prod', Date.now, async (event) => {
      if (failNext) {
        failNext = false;
        throw new Error('deliveries queue unavailable');
      }
      announced.push(event.id);
    });
    const fleetId = newId('fleet');
    const options = { dedupeKey: 'vehicle.offline:veh_1:1000' };
    await expect(recorder.record(fleetId, 'vehicle.offline', {}, options)).rejects.toThrow('unavailable');
    // The retry (a redelivered message) finds the stored event and fans it out now…
    const event = await recorder.record(fleetId, 'vehicle.offline', {}, options);
    expect(announced).toEqual([event.id]);
    expect(event.sequence).toBe(1);
    // …and only once.
    await recorder.record(fleetId, 'vehicle.offline', {}, options);
    expect(announced).toEqual([event.id]);
  });

  it('keeps sandbox and production apart: a stage marks its events and only reaches its own endpoints', async () => {
    const fleetId = newId('fleet');
    // Each stage's event recorder and delivery stores, as the composition root wires them.
    const sandboxStage = testInfrastructure({ tableName: sandboxTable, stage: 'sandbox' });
    const prodStage = testInfrastructure({ tableName: prodTable, stage: 'prod' });
    const sandbox = deliveryDeps(sandboxStage);
    const prod = deliveryDeps(prodStage);
    const prodEndpoint = endpointFor(fleetId);
    const sandboxEndpoint = endpointFor(fleetId);
    await prod.endpoints.create(prodEndpoint);
    await sandbox.endpoints.create(sandboxEndpoint);

    const sandboxEvent = await eventRecorder(sandboxStage).record(fleetId, 'guidance.updated', {});
    const liveEvent = await eventRecorder(prodStage).record(fleetId, 'guidance.updated', {});
    const queued = [...sandboxStage.sent.deliveries.messages, ...prodStage.sent.deliveries.messages].map(
      (message) => message.endpointId,
    );

    expect(sandboxEvent.sandbox).toBe(true);
    expect(liveEvent.sandbox).toBe(false);
    expect(queued).toEqual([sandboxEndpoint.id, prodEndpoint.id]);
    const sandboxLog = await sandbox.deliveries.list(
      { kind: 'fleet', fleetId },
      sandboxEndpoint.id,
      undefined,
      10,
      undefined,
    );
    expect(sandboxLog.data.map((d) => JSON.parse(d.body).sandbox)).toEqual([true]);
  });
});

describe('vehicle events carry the vehicle’s external_ref', () => {
  it('fills external_ref in after vehicle_id when the builder did not, null for a vehicle without one', async () => {
    // Arrange
    const fleetId = newId('fleet');
    const clock = fixedClock(Date.parse('2026-11-21T12:00:00Z'));
    const vehicles = { vehicles: createVehicleStore(client, prodTable, _cursors), clock };
    const { vehicle } = await createVehicle(vehicles, fleetId, { external_ref: 'TRUCK-7' });
    const recorder = eventRecorderOn(client, prodTable, 'prod', clock.now);

    // Act
    const lowFuel = await recorder.record(fleetId, 'vehicle.fuel_low', {
      vehicle_id: vehicle.id,
      fuel_level_percent: 18,
    });
    const unknown = await recorder.record(fleetId, 'vehicle.offline', { vehicle_id: newId('vehicle') });
    const ownRef = await recorder.record(fleetId, 'vehicle.online', {
      vehicle_id: vehicle.id,
      external_ref: 'SET',
    });
    const noVehicle = await recorder.record(fleetId, 'fleet.provisioned', { fleet: { id: fleetId } });

    // Assess
    expect(Object.entries(lowFuel.data)).toEqual([
      ['vehicle_id', vehicle.id],
      ['external_ref', 'TRUCK-7'],
      ['fuel_level_percent', 18],
    ]);
    expect(unknown.data.external_ref).toBeNull();
    expect(ownRef.data.external_ref).toBe('SET');
    expect(noVehicle.data).not.toHaveProperty('external_ref');
  });

  it('reads a vehicle once for a burst of its events, and a renamed vehicle’s new ref once the memory lapses', async () => {
    // Arrange: a client that counts the vehicle reads.
    const fleetId = newId('fleet');
    const clock = fixedClock(Date.parse('2026-11-21T12:00:00Z'));
    const vehicles = { vehicles: createVehicleStore(client, prodTable, _cursors), clock };
    const { vehicle } = await createVehicle(vehicles, fleetId, { external_ref: 'OLD-REF' });
    let vehicleReads = 0;
    const counting = {
      send: (command: { input: { Key?: { sk?: string } } }) => {
        if (command.input.Key?.sk?.startsWith('VEH#')) vehicleReads += 1;
        return client.send(command as never);
      },
    } as unknown as typeof client;
    const recorder = eventRecorderOn(counting, prodTable, 'prod', clock.now);

    // Act
    const burst = await Promise.all(
      ['vehicle.stop_arrived', 'guidance.updated', 'guidance.stop_approaching'].map((type) =>
        recorder.record(fleetId, type as 'guidance.updated', { vehicle_id: vehicle.id }),
      ),
    );
    await updateVehicle(vehicles, fleetId, vehicle.id, { external_ref: 'NEW-REF' });
    clock.advance(VEHICLE_REF_TTL_MS);
    const later = await recorder.record(fleetId, 'vehicle.offline', { vehicle_id: vehicle.id });

    // Assess
    expect(burst.map((event) => event.data.external_ref)).toEqual(['OLD-REF', 'OLD-REF', 'OLD-REF']);
    expect(later.data.external_ref).toBe('NEW-REF');
    expect(vehicleReads).toBe(2);
  });
});
