import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { ingestLocations } from '#shared/tracking/usecases/ingest.ts';
import { ingestDeps, positionStores } from '#shared/tracking/wiring/tracking.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleStore } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';

/**
 * POST /v1/locations' use case through the composition root against DynamoDB Local: a batch
 * resent until the old hourly item would have exceeded 400 KB; storage failing
 * for some vehicles only).
 */
const client = testDocumentClient();
const HOUR_MS = 3_600_000;
const NOW = Date.parse('2026-11-21T13:00:00Z');
const clock = fixedClock(NOW);
let table: string;
let infra: TestInfrastructure;
/** History writes of these vehicles fail as DynamoDB throttling would. */
const throttled = new Set<string>();

beforeAll(async () => {
  table = await createTestTable(client, 'location-ingest');
  infra = testInfrastructure({ tableName: table, clock });
  infra.dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      type Write = { Key?: { sk?: unknown }; Item?: { sk?: unknown } };
      const input = args.input as Write & { TransactItems?: { Put?: Write; Update?: Write }[] };
      // A single write, or the items of a transaction (a ring flush writes its chunk in one).
      const writes = input.TransactItems?.map((entry) => entry.Put ?? entry.Update ?? {}) ?? [input];
      const vehicles = writes.map((write) => {
        const raw = write.Key?.sk ?? write.Item?.sk;
        const sk = typeof raw === 'string' ? raw : ((raw as { S?: string } | undefined)?.S ?? '');
        return /^VEHHIST#([^#]+)#/.exec(sk)?.[1];
      });
      const vehicle = vehicles.find((id) => id !== undefined && throttled.has(id));
      if (/^(Put|Update|TransactWrite)/.test(context.commandName ?? '') && vehicle) {
        throw Object.assign(new Error('The level of configured provisioned throughput was exceeded'), {
          name: 'ProvisionedThroughputExceededException',
        });
      }
      return next(args);
    },
    { step: 'initialize', name: 'throttleHistory' },
  );
});
afterAll(() => deleteTestTable(client, table));

async function newTruck(fleetId: string) {
  const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleetId, {
    external_ref: `ING-${Math.random().toString(36).slice(2, 8)}`,
  });
  return vehicle.id;
}

const crumbs = (vehicleId: string, fromMs: number, count: number, spacingMs: number) =>
  Array.from({ length: count }, (_, i) => ({
    vehicle_id: vehicleId,
    latitude: 35 + i / 10_000,
    longitude: -97,
    recorded_at: new Date(fromMs + i * spacingMs).toISOString(),
    fuel_level_percent: 80,
    speed_mph: 55.5,
    address: 'I-35 northbound, mile 221',
  }));

describe('ingestLocations against DynamoDB Local', () => {
  it('accepts one 500-item batch resent 25 times, stores it once, and keeps later batches of that hour working', async () => {
    const fleetId = newId('fleet');
    const truck = await newTruck(fleetId);
    const hour = NOW - HOUR_MS;
    const batch = crumbs(truck, hour, 500, 5_000);
    for (let attempt = 0; attempt < 25; attempt++) {
      const response = await ingestLocations(ingestDeps(infra), fleetId, batch);
      expect(response).toMatchObject({ accepted: 500, rejected: 0 });
    }
    const later = crumbs(truck, hour + 2_500, 500, 5_000);
    expect(await ingestLocations(ingestDeps(infra), fleetId, later)).toMatchObject({ accepted: 500 });

    const { positions } = positionStores(infra);
    const history = await positions.historySince(fleetId, truck, null, NOW);
    expect(history).toHaveLength(1000);
    expect(history.map((p) => p.recordedAtMs)).toEqual(
      [...batch, ...later].map((c) => Date.parse(c.recorded_at)).sort((a, b) => a - b),
    );
    expect((await positions.latest(fleetId, truck))?.recordedAt).toBe(
      new Date(hour + 2_500 + 499 * 5_000).toISOString().replace('Z', '000Z'),
    );
  });

  it('rejects only the vehicle storage failed for, retryable; the retried batch completes it without duplicates', async () => {
    const fleetId = newId('fleet');
    const [a, b] = [await newTruck(fleetId), await newTruck(fleetId)];
    const batch = [...crumbs(a, NOW - 600_000, 100, 1_000), ...crumbs(b, NOW - 600_000, 100, 1_000)];
    infra.sent.vehicleUpdates.take(); // what earlier tests queued
    throttled.add(a);
    const first = await ingestLocations(ingestDeps(infra), fleetId, batch);
    expect(first).toMatchObject({ accepted: 100, rejected: 100 });
    expect(first.results.slice(0, 100).every((r) => 'code' in r && r.code === 'storage_unavailable')).toBe(
      true,
    );
    expect(first.results.slice(100).every((r) => r.status === 'accepted')).toBe(true);
    // The message carries what ingest read and wrote: the vehicle, and the position item as written.
    const queued = infra.sent.vehicleUpdates.take();
    expect(queued).toEqual([
      {
        fleetId,
        vehicleId: b,
        positionVersion: expect.any(Number),
        positions: expect.objectContaining({ version: expect.any(Number) }),
        vehicle: expect.objectContaining({ id: b, fleetId }),
      },
    ]);
    const written = await positionStores(infra).positions.recent(fleetId, b);
    expect(queued[0]?.positions).toEqual(written);
    expect(queued[0]?.positionVersion).toBe(written?.version);
    const { positions } = positionStores(infra);
    expect(await positions.latest(fleetId, a)).toBeNull();

    // Nothing storable at all: the whole request is the problem.
    await expect(ingestLocations(ingestDeps(infra), fleetId, batch.slice(0, 100))).rejects.toMatchObject({
      code: 'storage_unavailable',
      status: 503,
    });

    throttled.delete(a);
    const retry = await ingestLocations(ingestDeps(infra), fleetId, batch);
    expect(retry).toMatchObject({ accepted: 200, rejected: 0 });
    for (const vehicle of [a, b]) {
      const history = await positions.historySince(fleetId, vehicle, null, NOW);
      expect(history).toHaveLength(100);
      expect((await positions.latest(fleetId, vehicle))?.recordedAtMs).toBe(NOW - 600_000 + 99_000);
    }
  });
});
