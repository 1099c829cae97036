import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoItemBytes } from '#shared/table/item-size.ts';
import type { PositionFix } from '#shared/tracking/domain/positions.ts';
import { tuplesOf } from '#shared/tracking/store/breadcrumb-packing.ts';
import { positionOnlineKeys } from '#shared/tracking/store/online-index.ts';
import { RING_ITEM_BYTES, RING_MAX_POINTS } from '#shared/tracking/store/position-ring.ts';
import {
  createVehiclePositionStore,
  historyChunkKey,
  historyItemKey,
  latestPositionKey,
} from '#shared/tracking/store/vehicle-positions.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';

/**
 * `positions.record` against DynamoDB Local: one write per vehicle and request stores breadcrumbs
 * in the latest-position item's ring and moves the position; full rings flush to history chunks.
 * What must hold whatever the order, the resends, the races and the crashes: every breadcrumb
 * readable once in history, the latest position the newest one, the item about one write unit.
 */
const client = testDocumentClient();
let table: string;
beforeAll(async () => {
  table = await createTestTable(client, 'position-ring');
});
afterAll(() => deleteTestTable(client, table));

const T0 = Date.parse('2026-11-21T12:40:00Z');
const MINUTE = 60_000;
let vehicleCounter = 0;
const nextVehicle = () => `veh_ring${++vehicleCounter}`;

const fix = (minute: number, extra: Partial<PositionFix> = {}): PositionFix => ({
  latitude: 35 + minute / 1000,
  longitude: -97,
  recordedAtMs: T0 + minute * MINUTE,
  receivedAtMs: T0 + minute * MINUTE + 5_000,
  fuelLevelPercent: 80 - minute / 10,
  speedKmh: 96.5,
  headingDegrees: 270,
  driverRef: 'DRV-7',
  address: 'I-35 northbound, mile 221',
  ...extra,
});

const minutesOf = (points: readonly { recordedAtMs: number }[]) =>
  points.map((p) => (p.recordedAtMs - T0) / MINUTE);

async function positionItem(vehicleId: string) {
  const { Item } = await client.send(
    new GetCommand({ TableName: table, Key: latestPositionKey('flt_ring', vehicleId), ConsistentRead: true }),
  );
  return Item as Record<string, unknown>;
}

/** The vehicle's history items (chunks and hour items), in key order. */
async function historyItems(vehicleId: string) {
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': 'FLEET#flt_ring', ':prefix': `VEHHIST#${vehicleId}#` },
      ConsistentRead: true,
    }),
  );
  return Items;
}

const chunkKeys = async (vehicleId: string) => (await historyItems(vehicleId)).map((item) => String(item.sk));

/** Every breadcrumb time stored for the vehicle, repeats included: history items and the ring. */
async function storedTimes(vehicleId: string) {
  const items = await historyItems(vehicleId);
  const ring = tuplesOf((await positionItem(vehicleId)).ring);
  return [...items.flatMap((item) => tuplesOf(item.points)), ...ring].map((point) => Number(point[0]));
}

describe('the position ring', () => {
  it('says which position each write took over from: none at first, then the previous latest, none for a resend', async () => {
    const store = createVehiclePositionStore(client, table);
    const vehicle = nextVehicle();
    expect((await store.record('flt_ring', vehicle, [fix(0)])).previousLatestAtMs).toBeNull();
    expect((await store.record('flt_ring', vehicle, [fix(2), fix(1)])).previousLatestAtMs).toBe(T0);
    // Across a flush too: a minute at a time until the ring has flushed, each one after the last.
    for (let minute = 3; minute < 3 + 70; minute++) {
      const outcome = await store.record('flt_ring', vehicle, [fix(minute)]);
      expect(outcome.previousLatestAtMs).toBe(T0 + (minute - 1) * MINUTE);
    }
    // Already stored: no write, so no position was taken over.
    expect((await store.record('flt_ring', vehicle, [fix(5)])).previousLatestAtMs).toBeUndefined();
  });

  it('stores a breadcrumb a minute for two hours with one item write each, flushing chunks that history reads', async () => {
    const store = createVehiclePositionStore(client, table);
    const vehicle = nextVehicle();
    for (let minute = 0; minute < 120; minute++) {
      expect(await store.record('flt_ring', vehicle, [fix(minute)])).toMatchObject({
        retry: [],
        hourFull: [],
      });
      const item = await positionItem(vehicle);
      // Every write stays within one write unit (the address and driver are on every breadcrumb here).
      expect(dynamoItemBytes(item)).toBeLessThanOrEqual(RING_ITEM_BYTES);
    }
    const history = await store.historySince('flt_ring', vehicle, null, T0 + 119 * MINUTE);
    // Six hours of lookback from the last: all 120, once each, in order.
    expect(minutesOf(history)).toEqual(Array.from({ length: 120 }, (_, m) => m));
    expect(history[7]).toMatchObject({ latitude: 35.007, fuelLevelPercent: 79.3, speedKmh: 96.5 });
    const latest = await store.latest('flt_ring', vehicle);
    expect(latest).toMatchObject({
      recordedAtMs: T0 + 119 * MINUTE,
      driverRef: 'DRV-7',
      headingDegrees: 270,
    });
    // Chunks, not one item per breadcrumb: a packed ring holds a few dozen, flushed together
    // (one chunk a flush, two where it spans an hour), never across an hour.
    const chunks = (await chunkKeys(vehicle)).filter((sk) => sk.includes('#m'));
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks.length).toBeLessThanOrEqual(6);
    for (const { points } of await historyItems(vehicle))
      expect(new Set(tuplesOf(points).map((t) => new Date(Number(t[0])).getUTCHours())).size).toBe(1);
    const recent = await store.recent('flt_ring', vehicle);
    expect(recent?.flushedThroughMs).not.toBeNull();
    expect(recent?.recent.every((p) => p.recordedAtMs > (recent.flushedThroughMs as number))).toBe(true);
  });

  it('stores a resent or reordered batch once, keeps the position forward-only, and takes late breadcrumbs into history', async () => {
    const store = createVehiclePositionStore(client, table);
    const vehicle = nextVehicle();
    const first = Array.from({ length: 30 }, (_, m) => fix(m));
    await store.record('flt_ring', vehicle, first);
    await store.record('flt_ring', vehicle, [...first].reverse());
    // An older breadcrumb after newer ones (a buffered upload): history, not the position.
    await store.record('flt_ring', vehicle, [fix(40), fix(35)]);
    await store.record('flt_ring', vehicle, [fix(-5), fix(32)]);
    await store.record('flt_ring', vehicle, [fix(-5), fix(32), fix(40)]);
    const history = await store.historySince('flt_ring', vehicle, null, T0 + 40 * MINUTE);
    expect(minutesOf(history)).toEqual([-5, ...Array.from({ length: 30 }, (_, m) => m), 32, 35, 40]);
    expect((await store.latest('flt_ring', vehicle))?.recordedAtMs).toBe(T0 + 40 * MINUTE);
  });

  it('keeps every breadcrumb when requests for one vehicle race', async () => {
    const store = createVehiclePositionStore(client, table);
    const vehicle = nextVehicle();
    await Promise.all(
      Array.from({ length: 8 }, (_, request) =>
        store.record(
          'flt_ring',
          vehicle,
          Array.from({ length: 4 }, (_, i) => fix(request * 4 + i)),
        ),
      ),
    );
    const history = await store.historySince('flt_ring', vehicle, null, T0 + 31 * MINUTE);
    expect(minutesOf(history)).toEqual(Array.from({ length: 32 }, (_, m) => m));
    // Stored once, not only read once: the losers of the races left no chunk behind.
    expect((await storedTimes(vehicle)).sort((a, b) => a - b)).toEqual(history.map((p) => p.recordedAtMs));
    expect((await store.latest('flt_ring', vehicle))?.recordedAtMs).toBe(T0 + 31 * MINUTE);
  });

  it('writes a flush’s chunk and the ring together: a failed flush leaves nothing behind, the resend stores each once', async () => {
    const failing = testDocumentClient();
    let failed = false;
    failing.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand' && !failed) {
          failed = true;
          throw Object.assign(new Error('connection reset'), { name: 'TimeoutError' });
        }
        return next(args);
      },
      { step: 'serialize', name: 'failFirstFlush' },
    );
    const store = createVehiclePositionStore(failing, table);
    const vehicle = nextVehicle();
    let refused: number | null = null;
    // Single-breadcrumb requests: the first flush comes once the ring holds its most.
    const minutes = RING_MAX_POINTS + 10;
    for (let minute = 0; minute < minutes; minute++) {
      const before = await chunkKeys(vehicle);
      const outcome = await store.record('flt_ring', vehicle, [fix(minute)]);
      if (outcome.retry.length === 0) continue;
      refused = minute;
      // Nothing of the failed flush is stored, the position did not move; the client resends.
      expect(await chunkKeys(vehicle)).toEqual(before);
      expect((await store.latest('flt_ring', vehicle))?.recordedAtMs).toBe(T0 + (minute - 1) * MINUTE);
      expect(await store.record('flt_ring', vehicle, [fix(minute)])).toMatchObject({ retry: [] });
    }
    expect(refused).not.toBeNull();
    const history = await store.historySince('flt_ring', vehicle, null, T0 + (minutes - 1) * MINUTE);
    expect(minutesOf(history)).toEqual(Array.from({ length: minutes }, (_, m) => m));
    failing.destroy();
  });

  it('reads history complete while a flush commits between its two reads (a worker behind a flush)', async () => {
    const store = createVehiclePositionStore(client, table);
    // Where single-breadcrumb requests flush: learnt on a twin with the same breadcrumbs.
    const twin = nextVehicle();
    const flushes: number[] = [];
    let flushed: number | null = null;
    for (let minute = 0; minute < 3 * RING_MAX_POINTS; minute++) {
      await store.record('flt_ring', twin, [fix(minute)]);
      const now = (await store.recent('flt_ring', twin))?.flushedThroughMs ?? null;
      if (now !== flushed) flushes.push(minute);
      flushed = now;
    }
    const second = flushes[1] as number;
    const vehicle = nextVehicle();
    for (let minute = 0; minute < second; minute++) await store.record('flt_ring', vehicle, [fix(minute)]);
    const before = await store.recent('flt_ring', vehicle);
    // The worker's checkpoint lies before the first flush's end: it must read history.
    const checkpoint = (before?.flushedThroughMs as number) - 3 * MINUTE;
    const until = before?.latest.recordedAtMs as number;
    const racing = testDocumentClient();
    let calls = 0;
    racing.middlewareStack.add(
      (next) => async (args) => {
        // Between the first read and the second, another request flushes the ring.
        calls += 1;
        if (calls === 2) await store.record('flt_ring', vehicle, [fix(second)]);
        return next(args);
      },
      { step: 'initialize', name: 'flushInBetween' },
    );
    const read = await createVehiclePositionStore(racing, table).historySince(
      'flt_ring',
      vehicle,
      checkpoint,
      until,
    );
    const expected = Array.from({ length: second }, (_, m) => m).filter((m) => T0 + m * MINUTE > checkpoint);
    expect(minutesOf(read)).toEqual(expected);
    expect((await store.recent('flt_ring', vehicle))?.flushedThroughMs).toBeGreaterThan(
      before?.flushedThroughMs as number,
    );
    racing.destroy();
  });

  it('stores a five-day backlog of 500 breadcrumbs (one flush would touch 125 hours) in slices', async () => {
    const store = createVehiclePositionStore(client, table);
    const vehicle = nextVehicle();
    const backlog = Array.from({ length: 500 }, (_, i) => fix(-500 * 15 + i * 15));
    expect(await store.record('flt_ring', vehicle, backlog)).toMatchObject({ retry: [], hourFull: [] });
    // Every one stored once (historySince reads six hours back at most: count what is stored).
    const stored = await storedTimes(vehicle);
    expect(stored).toHaveLength(500);
    expect(new Set(stored).size).toBe(500);
    expect((await store.latest('flt_ring', vehicle))?.recordedAtMs).toBe(T0 - 15 * MINUTE);
  });

  it('flushes a dozen at a time even when a long address alone takes a kilobyte', async () => {
    const store = createVehiclePositionStore(client, table);
    const vehicle = nextVehicle();
    const address = '東京都千代田区丸の内一丁目'.repeat(23).slice(0, 300);
    const driverRef = 'ドライバー'.repeat(26).slice(0, 128);
    for (let minute = 0; minute < 30; minute++) {
      await store.record('flt_ring', vehicle, [fix(minute, { address, driverRef })]);
    }
    expect((await chunkKeys(vehicle)).length).toBeLessThanOrEqual(4);
    const item = await positionItem(vehicle);
    // The next KB boundary, not a third.
    expect(dynamoItemBytes(item)).toBeLessThanOrEqual(2048);
    expect(minutesOf(await store.historySince('flt_ring', vehicle, null, T0 + 29 * MINUTE))).toHaveLength(30);
  });

  it('continues an item written before the ring: newer breadcrumbs to the ring, older ones to the hour items', async () => {
    const store = createVehiclePositionStore(client, table);
    const vehicle = nextVehicle();
    await store.appendHistory('flt_ring', vehicle, [fix(0), fix(1), fix(2)]);
    await store.recordLatest('flt_ring', vehicle, fix(2));
    await store.record('flt_ring', vehicle, [fix(1), fix(3), fix(-1)]);
    const recent = await store.recent('flt_ring', vehicle);
    expect(recent?.flushedThroughMs).toBe(T0 + 2 * MINUTE);
    expect(minutesOf(recent?.recent ?? [])).toEqual([3]);
    const history = await store.historySince('flt_ring', vehicle, null, T0 + 3 * MINUTE);
    expect(minutesOf(history)).toEqual([-1, 0, 1, 2, 3]);
  });

  it('starts from prefetched items (one batch read, no read per vehicle); a stale one loses the condition and merges again', async () => {
    const counting = testDocumentClient();
    const reads: string[] = [];
    counting.middlewareStack.add(
      (next, context) => async (args) => {
        if (/^(Get|BatchGet)/.test(context.commandName ?? '')) reads.push(context.commandName as string);
        return next(args);
      },
      { step: 'initialize', name: 'countReads' },
    );
    const store = createVehiclePositionStore(counting, table);
    const [seen, fresh] = [nextVehicle(), nextVehicle()];
    await store.record('flt_ring', seen, [fix(0), fix(1)]);
    reads.length = 0;
    const prefetched = await store.prefetch('flt_ring', [seen, fresh, seen]);
    expect(reads).toEqual(['BatchGetItemCommand']);
    expect(prefetched.get(fresh)).toEqual({ item: null });
    expect(tuplesOf(prefetched.get(seen)?.item?.ring)).toHaveLength(2);

    reads.length = 0;
    expect(await store.record('flt_ring', fresh, [fix(0)], prefetched.get(fresh))).toMatchObject({
      retry: [],
    });
    expect(await store.record('flt_ring', seen, [fix(2)], prefetched.get(seen))).toMatchObject({ retry: [] });
    expect(reads).toEqual([]);
    // Stale now (the item moved on to minute 2): the write's condition fails, a consistent read follows.
    expect(await store.record('flt_ring', seen, [fix(3), fix(1)], prefetched.get(seen))).toMatchObject({
      retry: [],
      written: { version: 3 },
    });
    expect(reads).toEqual(['GetItemCommand']);
    expect(minutesOf(await store.historySince('flt_ring', seen, null, T0 + 3 * MINUTE))).toEqual([
      0, 1, 2, 3,
    ]);
    expect(minutesOf(await store.historySince('flt_ring', fresh, null, T0))).toEqual([0]);
    expect((await store.latest('flt_ring', seen))?.recordedAtMs).toBe(T0 + 3 * MINUTE);
    counting.destroy();
  });

  it('reads items written before packing (number lists) exactly, and rewrites them packed as it writes', async () => {
    const store = createVehiclePositionStore(client, table);
    const vehicle = nextVehicle();
    const hourMs = Date.parse('2026-11-21T12:00:00Z');
    // The list layout deployed tables hold: `[ms, lat, lon, fuel, km/h]`, nulls for absent values.
    const tuple = (minute: number) => {
      const f = fix(minute, minute % 4 === 0 ? { fuelLevelPercent: null, speedKmh: null } : {});
      return [f.recordedAtMs, f.latitude, f.longitude, f.fuelLevelPercent, f.speedKmh];
    };
    const minutes = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const put = (Item: Record<string, unknown>) => client.send(new PutCommand({ TableName: table, Item }));
    // An hour item from appends before the ring, a chunk the ring flushed, and the ring itself.
    await put({ ...historyItemKey('flt_ring', vehicle, hourMs, 0), points: [tuple(-30), tuple(-29)] });
    await put({
      ...historyChunkKey('flt_ring', vehicle, hourMs, T0 - 20 * MINUTE),
      points: minutes(-20, -11).map(tuple),
    });
    const latest = fix(0);
    await put({
      ...latestPositionKey('flt_ring', vehicle),
      ...positionOnlineKeys('flt_ring', vehicle, latest.receivedAtMs),
      latitude: latest.latitude,
      longitude: latest.longitude,
      recorded_at: '2026-11-21T12:40:00.000000Z',
      recorded_at_ms: latest.recordedAtMs,
      received_at_ms: latest.receivedAtMs,
      fuel_level_percent: latest.fuelLevelPercent,
      speed_kmh: latest.speedKmh,
      heading_degrees: latest.headingDegrees,
      driver_ref: latest.driverRef,
      address: latest.address,
      rv: 7,
      flushed_through_ms: T0 - 11 * MINUTE,
      ring: minutes(-10, 0).map(tuple),
    });
    const asPoint = ([recordedAtMs, latitude, longitude, fuelLevelPercent, speedKmh]: (number | null)[]) => ({
      recordedAtMs,
      latitude,
      longitude,
      fuelLevelPercent,
      speedKmh,
    });

    const before = await store.recent('flt_ring', vehicle);
    expect(before).toMatchObject({ version: 7, flushedThroughMs: T0 - 11 * MINUTE });
    expect(before?.recent).toEqual(minutes(-10, 0).map(tuple).map(asPoint));
    expect(await store.historySince('flt_ring', vehicle, null, T0)).toEqual(
      [...minutes(-30, -29), ...minutes(-20, 0)].map(tuple).map(asPoint),
    );

    // A late breadcrumb (to the old hour item) and newer ones (to the old ring), resent ones too.
    expect(
      await store.record('flt_ring', vehicle, [fix(-25), fix(-29), fix(-5), fix(1), fix(2), fix(3)]),
    ).toMatchObject({ retry: [], hourFull: [] });
    const item = await positionItem(vehicle);
    expect(item.ring).toBeInstanceOf(Uint8Array);
    expect(item.rv).toBe(8);
    expect(tuplesOf(item.ring).map((t) => (Number(t[0]) - T0) / MINUTE)).toEqual([
      ...minutes(-10, 0),
      1,
      2,
      3,
    ]);
    const [hourItem, oldChunk] = await historyItems(vehicle);
    expect(hourItem?.points).toBeInstanceOf(Uint8Array);
    expect(tuplesOf(hourItem?.points)).toEqual([tuple(-30), tuple(-29), tuple(-25)]);
    // A chunk is immutable: it stays in the list layout and is read as such.
    expect(Array.isArray(oldChunk?.points)).toBe(true);
    expect(await store.historySince('flt_ring', vehicle, null, T0 + 3 * MINUTE)).toEqual(
      [...minutes(-30, -29), -25, ...minutes(-20, 3)].map(tuple).map(asPoint),
    );
    expect(await storedTimes(vehicle)).toHaveLength(2 + 1 + 24);
    expect((await store.latest('flt_ring', vehicle))?.recordedAtMs).toBe(T0 + 3 * MINUTE);
  });

  it('stores nothing newer than a late breadcrumb it could not store, so the position waits for the resend', async () => {
    const failing = testDocumentClient();
    let throttleHistory = false;
    failing.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Key?: { sk?: unknown }; TransactItems?: unknown };
        const sk = (input.Key?.sk as { S?: string } | undefined)?.S ?? '';
        if (throttleHistory && context.commandName === 'UpdateItemCommand' && sk.startsWith('VEHHIST#')) {
          throw Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' });
        }
        return next(args);
      },
      { step: 'serialize', name: 'throttleHistory' },
    );
    const store = createVehiclePositionStore(failing, table);
    const vehicle = nextVehicle();
    await store.appendHistory('flt_ring', vehicle, [fix(0)]);
    await store.recordLatest('flt_ring', vehicle, fix(10));
    throttleHistory = true;
    const outcome = await store.record('flt_ring', vehicle, [fix(5), fix(11)]);
    expect(minutesOf(outcome.retry)).toEqual([5, 11]);
    expect((await store.latest('flt_ring', vehicle))?.recordedAtMs).toBe(T0 + 10 * MINUTE);
    throttleHistory = false;
    expect(await store.record('flt_ring', vehicle, [fix(5), fix(11)])).toMatchObject({ retry: [] });
    const history = await store.historySince('flt_ring', vehicle, null, T0 + 11 * MINUTE);
    expect(minutesOf(history)).toEqual([0, 5, 11]);
    failing.destroy();
  });
});
