import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeoPoint } from '#shared/kernel/distance.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import { PLAN_CATALOG } from '#shared/plans/domain/plan-catalog.ts';
import type { Plan } from '#shared/plans/domain/plans.ts';
import { createPlanStore } from '#shared/plans/store/plans.ts';
import { ApiError } from '#shared/platform/errors.ts';
import {
  cellOf,
  type EnumerationGuardSettings,
  nearbyFootprint,
} from '#shared/stations/domain/enumeration-guard.ts';
import {
  createEnumerationWindowStore,
  enumerationWindowKey,
} from '#shared/stations/store/enumeration-windows.ts';
import { guardStationQuery } from '#shared/stations/usecases/enumeration-guard.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { createVehiclePositionStore } from '#shared/tracking/store/vehicle-positions.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { seededRandom } from '#test/support/seeded-random.ts';

const client = testDocumentClient();
let table: string;
beforeAll(async () => {
  table = await createTestTable(client, 'enumeration');
});
afterAll(() => deleteTestTable(client, table));

const START = Date.parse('2026-11-23T14:00:00Z');
const guard: Partial<EnumerationGuardSettings> = {
  latticeMinCells: 9,
  maxDistinctCells: 40,
  coolDownMinutes: 10,
};
const plan: Plan = {
  name: 'tight',
  rateLimitPerMin: 1_000,
  monthlyQuota: {},
  stationQueryBudget: 1_000_000,
  priceQueryCap: 25,
  enumerationGuard: guard,
};
/** The starter plan's thresholds (the strictest of the catalog), for the write-unit figures. */
const starterPlan: Plan = {
  ...plan,
  name: 'starter-like',
  enumerationGuard: PLAN_CATALOG.find((candidate) => candidate.name === 'starter')?.enumerationGuard,
};
const principal = (keyId: string): Principal => ({
  keyId,
  keyName: 'k',
  ownerType: 'company',
  accountId: 'cmp_of_flt_own',
  partnerId: null,
  ownFleetId: 'flt_own',
  mode: 'live',
  scopes: ['guidance:read'],
  planName: 'tight',
  keyCreatedAt: '2026-11-01T00:00:00.000000Z',
});

function guardWith(clock: { now: number }, on: DocumentClient = client, withPlan: Plan = plan) {
  const deps = {
    windows: createEnumerationWindowStore(on, table),
    plan: async () => withPlan,
    now: () => clock.now,
  };
  return (keyId: string, fleetId: string, point: GeoPoint, radiusMiles = 1) =>
    guardStationQuery(deps, principal(keyId), fleetId, nearbyFootprint(point, radiusMiles)).then(
      () => null,
      (error: unknown) => error,
    );
}

/** A 3×3 lattice of queries, one degree apart, southwest corner given. */
const lattice = (south: number, west: number): GeoPoint[] =>
  [0, 1, 2].flatMap((row) =>
    [0, 1, 2].map((column) => ({ latitude: south + row, longitude: west + column })),
  );

/** Every cell and area the window item holds, whatever its bucket. */
const entriesOf = (item: Record<string, unknown> | undefined) =>
  Object.entries(item ?? {})
    .filter(([name]) => /^b\d+$/.test(name))
    .flatMap(([, cells]) => [...(cells as Set<string>)]);
const bucketsOf = (item: Record<string, unknown> | undefined) =>
  Object.keys(item ?? {}).filter((name) => /^b\d+$/.test(name));

describe('the enumeration window item (DynamoDB Local)', () => {
  it('keeps every cell of concurrent queries of one key', async () => {
    // Arrange
    const clock = { now: START };
    // The lattice rule is out of reach here: which 9 of the 30 scattered cells a query sees first
    // depends on how the writes interleave, and 9 random cells can happen to space evenly enough
    // for it (the race this test is about is the item's, not the rule's).
    const noLattice: Plan = { ...plan, enumerationGuard: { ...guard, latticeMinCells: 1_000 } };
    const check = guardWith(clock, client, noLattice);
    const random = seededRandom(30);
    const points = Array.from({ length: 30 }, () => ({
      latitude: 30 + random() * 17,
      longitude: -120 + random() * 40,
    }));

    // Act
    const outcomes = await Promise.all(points.map((point) => check('key_concurrent', 'flt_own', point)));

    // Assess: none refused (30 cells, under the plan's 40) and none lost to a race.
    expect(outcomes.filter((outcome) => outcome !== null)).toEqual([]);
    const { Item } = await client.send(windowItem('key_concurrent#flt_own'));
    const anchors = entriesOf(Item).filter((entry) => !entry.startsWith('A'));
    expect(new Set(anchors)).toEqual(new Set(points.map(cellOf)));
  });

  it('refuses a sweep far from the fleet with 403 enumeration_suspected until the cool-down ends', async () => {
    // Arrange: the fleet's one truck is in Texas; the sweep is over Nevada. Twenty minutes before
    // it, the key asked about 8 other far places: they have left the window and never count.
    await truckAt('flt_far', 32.78, -96.8);
    const clock = { now: START - 20 * 60_000 };
    const check = guardWith(clock);
    for (const point of lattice(43, -110).slice(0, 8)) {
      clock.now += 1_000;
      await check('key_sweep', 'flt_far', {
        latitude: point.latitude + 0.37,
        longitude: point.longitude + 0.21,
      });
    }
    clock.now = START;

    // Act
    const outcomes = await sweep(check, clock, 'key_sweep', 'flt_far');
    const trippedAt = clock.now;
    clock.now += 60_000;
    const whileCooling = await check('key_sweep', 'flt_far', { latitude: 32.8, longitude: -96.8 });
    const itemWhileCooling = (await client.send(windowItem('key_sweep#flt_far'))).Item;
    clock.now = trippedAt + 10 * 60_000;
    const afterCoolDown = await check('key_sweep', 'flt_far', { latitude: 32.8, longitude: -96.8 });

    // Assess
    expect(outcomes.slice(0, 8)).toEqual(Array(8).fill(null));
    const refusal = outcomes[8];
    expect(refusal).toBeInstanceOf(ApiError);
    const coolDownUntil = new Date(trippedAt + 10 * 60_000).toISOString().slice(0, 19);
    expect(refusal).toMatchObject({
      code: 'enumeration_suspected',
      status: 403,
      extensions: { limit: 9, used: 9, cool_down_until: expect.stringContaining(coolDownUntil) },
    });
    expect((refusal as ApiError).hint).toContain(coolDownUntil);
    // The same figures while cooling down: the 8 stale cells never count (they did before: 17).
    expect(whileCooling).toMatchObject({ code: 'enumeration_suspected', extensions: { limit: 9, used: 9 } });
    expect(afterCoolDown).toBeNull();
    // The item kept the cool-down's end and emptied the window; the refused query added nothing.
    expect(itemWhileCooling?.blocked_until_ms).toBe(trippedAt + 10 * 60_000);
    expect(entriesOf(itemWhileCooling)).toEqual([]);
  });

  it('lets the same sweep through around the fleet’s own vehicles, and records nothing while vetted', async () => {
    // Arrange: a truck in the middle of the swept square.
    await truckAt('flt_near', 38, -118);
    const clock = { now: START };
    const check = guardWith(clock);

    // Act
    const outcomes = await sweep(check, clock, 'key_near', 'flt_near');
    clock.now += 10_000;
    const whileVetted = await check('key_near', 'flt_near', { latitude: 44, longitude: -100 });

    // Assess: judged (vetted) once and allowed; the window emptied and stays empty meanwhile.
    expect(outcomes).toEqual(Array(9).fill(null));
    expect(whileVetted).toBeNull();
    const { Item } = await client.send(windowItem('key_near#flt_near'));
    expect(Item?.vetted_until_ms).toBeGreaterThan(clock.now);
    expect(entriesOf(Item)).toEqual([]);
  });

  it('drops the buckets that left the window from the stored item', async () => {
    // Arrange: 60 queries in one place over a minute, then one 20 minutes later.
    const clock = { now: START };
    const check = guardWith(clock);
    for (let i = 0; i < 60; i += 1) {
      clock.now += 1_000;
      await check('key_prune', 'flt_own', { latitude: 30, longitude: -100 });
    }
    const before = (await client.send(windowItem('key_prune#flt_own'))).Item;

    // Act
    clock.now += 20 * 60_000;
    await check('key_prune', 'flt_own', { latitude: 31, longitude: -100 });

    // Assess: 60 queries of one place are one cell and its areas, not 60 entries.
    expect(new Set(entriesOf(before)).size).toBe(entriesOf(before).length);
    expect(entriesOf(before).length).toBeLessThanOrEqual(5);
    const { Item } = await client.send(windowItem('key_prune#flt_own'));
    expect(bucketsOf(Item)).toHaveLength(1);
    expect(entriesOf(Item)).toContain(cellOf({ latitude: 31, longitude: -100 }));
  });
  it('drops the former design’s visit list on the first query after the deploy', async () => {
    // Arrange: an item as the visit-list design left it.
    const key = enumerationWindowKey('key_migrated#flt_own');
    const visits = Array.from({ length: 300 }, (_, i) => ['300:-1000', START - i * 1_000]);
    await client.send(new PutCommand({ TableName: table, Item: { ...key, visits, expires_at: 1 } }));

    // Act
    const outcome = await guardWith({ now: START })('key_migrated', 'flt_own', {
      latitude: 30,
      longitude: -100,
    });

    // Assess
    expect(outcome).toBeNull();
    const { Item } = await client.send(windowItem('key_migrated#flt_own'));
    expect(Item).not.toHaveProperty('visits');
    expect(entriesOf(Item)).toContain(cellOf({ latitude: 30, longitude: -100 }));
  });
});

describe('write units of the guard (DynamoDB Local, ReturnConsumedCapacity)', () => {
  it('a busy fleet’s query costs a few write units, where the visit-list item cost up to ~14', async () => {
    // Arrange: a 500-truck fleet around its trucks over the southern states (the starter plan's
    // thresholds), 17 queries a minute at the default radius, as in the unit replay.
    const measured = measuringClient();
    const random = seededRandom(99);
    const trucks = Array.from({ length: 500 }, () => ({
      latitude: 30 + random() * 6,
      longitude: -105 + random() * 20,
    }));
    for (const [i, truck] of trucks.slice(0, 50).entries()) {
      await truckAt('flt_busy', truck.latitude, truck.longitude, `veh_${i}`);
    }
    const clock = { now: START };
    const check = guardWith(clock, measured.client, starterPlan);
    const queries = 400;

    // Act: 400 queries (about 24 minutes), each near a random truck.
    for (let i = 0; i < queries; i += 1) {
      clock.now += 3_600;
      const truck = trucks[Math.floor(random() * trucks.length)] as GeoPoint;
      const outcome = await check('key_busy', 'flt_busy', truck, 25);
      expect(outcome).toBeNull();
    }
    const writes = measured.unitsByCommand('UpdateItemCommand');
    // A refused conditional write (a vetted window) is billed on the item's size too: the item
    // is then all but empty, 1 unit (DynamoDB Local reports no capacity for refusals).
    const perQuery = (writes.reduce((sum, units) => sum + units, 0) + measured.conditionRefusals()) / queries;
    const visitListAtThisRate = await visitListWriteUnits(300);
    const visitListAtItsBound = await visitListWriteUnits(650);

    // Assess (bench figures in docs/enumeration-and-finance.md)
    console.info(
      `enumeration guard write units per query: visit list ${visitListAtThisRate} (300 visits) to ` +
        `${visitListAtItsBound} (650); buckets ${perQuery.toFixed(2)} on average, largest write ${Math.max(...writes)}`,
    );
    expect(visitListAtThisRate).toBeGreaterThanOrEqual(6);
    expect(visitListAtItsBound).toBeGreaterThanOrEqual(12);
    expect(Math.max(...writes)).toBeLessThanOrEqual(4);
    expect(perQuery).toBeLessThanOrEqual(2.5);
  });
});

describe('enumeration thresholds on the plan item', () => {
  it('are stored with the plan and read back; a plan without them reads none (defaults apply)', async () => {
    const plans = createPlanStore(client, table);
    await plans.put(plan);
    await plans.put({ ...plan, name: 'plain', enumerationGuard: undefined });

    expect((await plans.get('tight'))?.enumerationGuard).toEqual(guard);
    expect((await plans.get('plain'))?.enumerationGuard).toBeUndefined();
  });
});

/** One truck of the fleet, reported at START. */
async function truckAt(fleetId: string, latitude: number, longitude: number, vehicleId = 'veh_1') {
  await createVehiclePositionStore(client, table).recordLatest(fleetId, vehicleId, {
    latitude,
    longitude,
    recordedAtMs: START,
    receivedAtMs: START,
    fuelLevelPercent: null,
    speedKmh: null,
    headingDegrees: null,
    driverRef: null,
    address: null,
  });
}

/** The lattice over Nevada, one query every 10 s: each query's outcome (null when answered). */
async function sweep(
  check: ReturnType<typeof guardWith>,
  clock: { now: number },
  keyId: string,
  fleetId: string,
): Promise<unknown[]> {
  const outcomes: unknown[] = [];
  for (const point of lattice(37, -119)) {
    clock.now += 10_000;
    outcomes.push(await check(keyId, fleetId, point));
  }
  return outcomes;
}

/** The window of one key acting on one fleet (`<key>#<fleet>`). */
function windowItem(windowId: string) {
  return new GetCommand({ TableName: table, Key: enumerationWindowKey(windowId), ConsistentRead: true });
}

/**
 * A document client that asks for and records the write units of every successful write: what
 * DynamoDB bills, which follows the item's size (the larger of before and after), not the answer.
 */
function measuringClient() {
  const measuredClient = testDocumentClient();
  const units: { command: string; units: number }[] = [];
  let refusals = 0;
  measuredClient.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args).catch((error: unknown) => {
        if ((error as Error).name === 'ConditionalCheckFailedException') refusals += 1;
        throw error;
      });
      const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity;
      if (consumed?.CapacityUnits !== undefined) {
        units.push({ command: String(context.commandName), units: consumed.CapacityUnits });
      }
      return result;
    },
    { step: 'initialize', name: 'measureCapacity' },
  );
  return {
    client: measuredClient,
    conditionRefusals: () => refusals,
    unitsByCommand: (name: string) =>
      units.filter((entry) => entry.command === name).map((entry) => entry.units),
  };
}

/**
 * The write units of one query under the former design: a list of `[cell, ms]` visits per key
 * (one per query, ~300 at 17 queries a minute, up to ~650), appended to with `list_append`.
 */
async function visitListWriteUnits(count: number): Promise<number> {
  const key = enumerationWindowKey(`key_old_${count}#flt_busy`);
  const random = seededRandom(count);
  const visits = Array.from({ length: count }, (_, i) => [
    cellOf({ latitude: 30 + random() * 6, longitude: -105 + random() * 20 }),
    START + i * 1_000,
  ]);
  await client.send(new PutCommand({ TableName: table, Item: { ...key, visits, expires_at: 1 } }));
  const { ConsumedCapacity } = await client.send(
    new UpdateCommand({
      TableName: table,
      Key: key,
      UpdateExpression: 'SET visits = list_append(visits, :visits)',
      ExpressionAttributeValues: { ':visits': [['329:-969', START + 650_000]] },
      ReturnValues: 'ALL_NEW',
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  return ConsumedCapacity?.CapacityUnits ?? 0;
}
