import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PositionFix } from '../../shared/domain/telematics/positions.ts';
import { createVehiclePositionStore, historyBucketKey } from '../../shared/store/vehicle-positions.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '../support/dynamodb.ts';

const client = testDocumentClient();
let table: string;
beforeAll(async () => {
  table = await createTestTable(client, 'positions');
});
afterAll(() => deleteTestTable(client, table));

const fix = (recordedAtMs: number, latitude: number): PositionFix => ({
  latitude,
  longitude: -95,
  recordedAtMs,
  receivedAtMs: recordedAtMs,
  fuelLevelPercent: null,
  speedKmh: null,
  headingDegrees: null,
  driverRef: null,
  address: null,
});

describe('latest positions and history', () => {
  it('only moves the latest position forward in time, even when writes race', async () => {
    const store = createVehiclePositionStore(client, table);
    const t = Date.parse('2026-11-21T12:00:00Z');
    const results = await Promise.all(
      [30, 10, 20, 0].map((m) => store.recordLatest('flt_1', 'veh_1', fix(t + m * 60_000, m))),
    );
    expect(results.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    expect((await store.latest('flt_1', 'veh_1'))?.latitude).toBe(30);
    expect(await store.recordLatest('flt_1', 'veh_1', fix(t, 99))).toBe(false);
  });

  it('appends breadcrumbs into hourly buckets', async () => {
    const store = createVehiclePositionStore(client, table);
    const t = Date.parse('2026-11-21T12:58:00Z');
    await store.appendHistory('flt_1', 'veh_2', [fix(t, 1), fix(t + 60_000, 2), fix(t + 3 * 60_000, 3)]);
    await store.appendHistory('flt_1', 'veh_2', [fix(t + 30_000, 4)]);
    const { Item: twelve } = await client.send(
      new GetCommand({ TableName: table, Key: historyBucketKey('flt_1', 'veh_2', t) }),
    );
    const { Item: one } = await client.send(
      new GetCommand({ TableName: table, Key: historyBucketKey('flt_1', 'veh_2', t + 3 * 60_000) }),
    );
    expect(twelve?.points).toHaveLength(3);
    expect(one?.points).toHaveLength(1);
    expect(twelve?.expires_at).toBeGreaterThan(t / 1000);
  });
});
