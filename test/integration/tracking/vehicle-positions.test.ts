import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PositionFix } from '#shared/tracking/domain/positions.ts';
import { tuplesOf } from '#shared/tracking/store/breadcrumb-packing.ts';
import {
  createVehiclePositionStore,
  HISTORY_LOOKBACK_HOURS,
  HistoryWriteError,
  historyBucketKey,
  MAX_HISTORY_POINTS_PER_ITEM,
} from '#shared/tracking/store/vehicle-positions.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';

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
    expect(tuplesOf(twelve?.points)).toHaveLength(3);
    expect(tuplesOf(one?.points)).toHaveLength(1);
    expect(twelve?.expires_at).toBeGreaterThan(t / 1000);
  });

  /** The vehicle's history items, in sort-key order: sort key and number of points. */
  async function historyItems(vehicleId: string) {
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': 'FLEET#flt_1', ':prefix': `VEHHIST#${vehicleId}#` },
      }),
    );
    return Items.map((item) => ({ sk: String(item.sk), count: tuplesOf(item.points).length }));
  }

  it('rolls an hour over into continuation items before the bound, and stores a resent breadcrumb once', async () => {
    const store = createVehiclePositionStore(client, table);
    const hour = Date.parse('2026-11-21T12:00:00Z');
    // 700 breadcrumbs in one hour, 5 s apart, in batches of 250 — each batch sent twice.
    const all = Array.from({ length: 700 }, (_, i) => fix(hour + i * 5_000, i));
    for (let i = 0; i < all.length; i += 250) {
      const batch = all.slice(i, i + 250);
      await store.appendHistory('flt_1', 'veh_3', batch);
      await store.appendHistory('flt_1', 'veh_3', batch);
    }
    // Duplicates inside one batch too, and a resend of everything at once.
    await store.appendHistory('flt_1', 'veh_3', [all[3] as PositionFix, all[3] as PositionFix]);
    await store.appendHistory('flt_1', 'veh_3', all);

    const items = await historyItems('veh_3');
    const first = historyBucketKey('flt_1', 'veh_3', hour).sk;
    expect(items.map((i) => i.sk)).toEqual([first, `${first}#0001`, `${first}#0002`]);
    expect(items.every((i) => i.count <= MAX_HISTORY_POINTS_PER_ITEM)).toBe(true);
    expect(items.reduce((sum, i) => sum + i.count, 0)).toBe(700);

    const read = await store.historySince('flt_1', 'veh_3', null, hour + 3_599_999);
    expect(read.map((p) => p.recordedAtMs)).toEqual(all.map((f) => f.recordedAtMs));
  });

  it('reads every distinct breadcrumb once, in recorded order, across rolled-over items and hours', async () => {
    const store = createVehiclePositionStore(client, table);
    const start = Date.parse('2026-11-21T09:30:00Z');
    // Three hours at one breadcrumb every 10 s (360 an hour: two items each), posted newest first
    // in shuffled batches, with late data and resends.
    const all = Array.from({ length: 3 * 360 }, (_, i) => fix(start + i * 10_000, i));
    const shuffled = [...all].sort((a, b) => ((a.latitude * 7919) % 1000) - ((b.latitude * 7919) % 1000));
    // All but the first 300 of the shuffled order first, four writers at once.
    await Promise.all(
      [0, 1, 2, 3].map(async (part) => {
        const slice = shuffled.slice(300 + part * 195, 300 + (part + 1) * 195);
        for (let i = 0; i < slice.length; i += 65)
          await store.appendHistory('flt_1', 'veh_4', slice.slice(i, i + 65));
      }),
    );
    // Racing writers on breadcrumbs not stored yet, with overlapping batches: stored once each.
    await Promise.all(
      [0, 1, 2].map((k) => store.appendHistory('flt_1', 'veh_4', shuffled.slice(k * 50, k * 50 + 200))),
    );

    const items = await historyItems('veh_4');
    expect(items.every((i) => i.count <= MAX_HISTORY_POINTS_PER_ITEM)).toBe(true);
    expect(items.reduce((sum, i) => sum + i.count, 0)).toBe(all.length);

    const untilMs = (all.at(-1) as PositionFix).recordedAtMs;
    expect(untilMs - start).toBeLessThan(HISTORY_LOOKBACK_HOURS * 3_600_000);
    const everything = await store.historySince('flt_1', 'veh_4', null, untilMs);
    expect(everything.map((p) => p.recordedAtMs)).toEqual(all.map((f) => f.recordedAtMs));
    // What the worker has not consumed yet: strictly after the last processed one.
    const after = (all[500] as PositionFix).recordedAtMs;
    const rest = await store.historySince('flt_1', 'veh_4', after, untilMs);
    expect(rest.map((p) => p.recordedAtMs)).toEqual(all.slice(501).map((f) => f.recordedAtMs));
  });

  it('stores every breadcrumb once when overlapping batches race across an item bound', async () => {
    const store = createVehiclePositionStore(client, table);
    const hour = Date.parse('2026-11-21T15:00:00Z');
    const at = (i: number) => fix(hour + i * 1_000, i);
    for (let trial = 0; trial < 10; trial++) {
      const vehicleId = `veh_race_${trial}`;
      // The first item holds 200 points: 40 of room before the bound.
      await store.appendHistory(
        'flt_1',
        vehicleId,
        Array.from({ length: 200 }, (_, i) => at(i)),
      );
      // Two writers started together, overlapping on t240–259: A's fit the first item's room, B's
      // straddle the 240 bound (B fills the room with t200–239 and puts t240–279 in a new item).
      const a = Array.from({ length: 20 }, (_, i) => at(240 + i));
      const b = Array.from({ length: 80 }, (_, i) => at(200 + i));
      await Promise.all([
        store.appendHistory('flt_1', vehicleId, a),
        store.appendHistory('flt_1', vehicleId, b),
      ]);

      const items = await historyItems(vehicleId);
      expect(items.every((i) => i.count <= MAX_HISTORY_POINTS_PER_ITEM)).toBe(true);
      expect(items.reduce((sum, i) => sum + i.count, 0)).toBe(280);
      const read = await store.historySince('flt_1', vehicleId, null, hour + 3_599_999);
      expect(read.map((p) => p.latitude)).toEqual(Array.from({ length: 280 }, (_, i) => i));
    }
  });

  it('stores what fits in an hour whose items run out, and reports the rest as refused for a full hour', async () => {
    // Two items an hour instead of 10,000, so the bound is 480 breadcrumbs.
    const store = createVehiclePositionStore(client, table, { maxItemsPerHour: 2 });
    const hour = Date.parse('2026-11-21T16:00:00Z');
    const all = Array.from({ length: 500 }, (_, i) => fix(hour + i * 1_000, i));
    await store.appendHistory('flt_1', 'veh_full', all.slice(0, 300));
    const error = await store.appendHistory('flt_1', 'veh_full', all).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HistoryWriteError);
    const { failed, hourFull } = error as HistoryWriteError;
    expect(failed.map((f) => f.latitude)).toEqual(all.slice(480).map((f) => f.latitude));
    expect(hourFull).toEqual(failed);
    const items = await historyItems('veh_full');
    expect(items.map((i) => i.count)).toEqual([240, 240]);
    // The next hour is not affected.
    await store.appendHistory('flt_1', 'veh_full', [fix(hour + 3_600_000, 1)]);
  });

  it('keeps a breadcrumb 89 days old readable, with its item kept for the retention period', async () => {
    const store = createVehiclePositionStore(client, table);
    const old = Date.parse('2026-08-24T08:15:00Z');
    await store.appendHistory('flt_1', 'veh_5', [fix(old, 1), fix(old + 60_000, 2)]);
    const read = await store.historySince('flt_1', 'veh_5', null, old + 3_600_000);
    expect(read.map((p) => p.latitude)).toEqual([1, 2]);
    const { Item } = await client.send(
      new GetCommand({ TableName: table, Key: historyBucketKey('flt_1', 'veh_5', old) }),
    );
    expect(Item?.expires_at).toBeGreaterThanOrEqual((old + 90 * 86_400_000) / 1000);
  });
});
