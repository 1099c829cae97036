import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/domain/api-keys.ts';
import type { Plan } from '../../shared/domain/plans.ts';
import type { EnumerationGuardSettings } from '../../shared/domain/stations/enumeration-guard.ts';
import type { GeoPoint } from '../../shared/geo/distance.ts';
import { ApiError } from '../../shared/platform/errors.ts';
import {
  createEnumerationWindowStore,
  enumerationWindowKey,
} from '../../shared/store/enumeration-windows.ts';
import { createPlanStore } from '../../shared/store/plans.ts';
import { createVehiclePositionStore } from '../../shared/store/vehicle-positions.ts';
import { guardStationQuery } from '../../shared/usecases/enumeration-guard.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '../support/dynamodb.ts';
import { seededRandom } from '../support/seeded-random.ts';

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

function guardWith(clock: { now: number }) {
  const deps = {
    windows: createEnumerationWindowStore(client, table),
    plan: async () => plan,
    now: () => clock.now,
  };
  return (keyId: string, fleetId: string, point: GeoPoint) =>
    guardStationQuery(deps, principal(keyId), fleetId, [point]).then(
      () => null,
      (error: unknown) => error,
    );
}

/** A 3×3 lattice of queries, one degree apart, southwest corner given. */
const lattice = (south: number, west: number): GeoPoint[] =>
  [0, 1, 2].flatMap((row) =>
    [0, 1, 2].map((column) => ({ latitude: south + row, longitude: west + column })),
  );

describe('the enumeration window item (DynamoDB Local)', () => {
  it('keeps every cell of concurrent queries of one key', async () => {
    // Arrange
    const clock = { now: START };
    const check = guardWith(clock);
    const random = seededRandom(30);
    const points = Array.from({ length: 30 }, () => ({
      latitude: 30 + random() * 17,
      longitude: -120 + random() * 40,
    }));

    // Act
    const outcomes = await Promise.all(points.map((point) => check('key_concurrent', 'flt_own', point)));

    // Assess: none lost to a race (30 scattered cells, under the plan's 40, are no lattice).
    expect(outcomes.filter((outcome) => outcome !== null)).toEqual([]);
    const { Item } = await client.send(windowItem('key_concurrent#flt_own'));
    expect(Item?.visits).toHaveLength(30);
  });

  it('refuses a sweep far from the fleet with 403 enumeration_suspected until the cool-down ends', async () => {
    // Arrange: the fleet's one truck is in Texas; the sweep is over Nevada.
    await truckAt('flt_far', 32.78, -96.8);
    const clock = { now: START };
    const check = guardWith(clock);

    // Act
    const outcomes = await sweep(check, clock, 'key_sweep', 'flt_far');
    const trippedAt = clock.now;
    clock.now += 60_000;
    const whileCooling = await check('key_sweep', 'flt_far', { latitude: 32.8, longitude: -96.8 });
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
    expect(whileCooling).toMatchObject({ code: 'enumeration_suspected', extensions: { used: 9 } });
    expect(afterCoolDown).toBeNull();
    // The item kept the cool-down's end; the refused query appended nothing.
    const { Item } = await client.send(windowItem('key_sweep#flt_far'));
    expect(Item?.blocked_until_ms).toBe(trippedAt + 10 * 60_000);
    expect(Item?.visits).toHaveLength(10);
  });

  it('lets the same sweep through around the fleet’s own vehicles', async () => {
    // Arrange: a truck in the middle of the swept square.
    await truckAt('flt_near', 38, -118);
    const clock = { now: START };
    const check = guardWith(clock);

    // Act
    const outcomes = await sweep(check, clock, 'key_near', 'flt_near');

    // Assess: judged (vetted) once and allowed.
    expect(outcomes).toEqual(Array(9).fill(null));
    const { Item } = await client.send(windowItem('key_near#flt_near'));
    expect(Item?.vetted_until_ms).toBeGreaterThan(clock.now);
  });

  it('prunes visits older than the window from the stored list', async () => {
    // Arrange: 60 queries in one place, then one 20 minutes later.
    const clock = { now: START };
    const check = guardWith(clock);
    for (let i = 0; i < 60; i += 1) {
      clock.now += 1_000;
      await check('key_prune', 'flt_own', { latitude: 30, longitude: -100 });
    }

    // Act
    clock.now += 20 * 60_000;
    await check('key_prune', 'flt_own', { latitude: 30, longitude: -100 });

    // Assess
    const { Item } = await client.send(windowItem('key_prune#flt_own'));
    expect(Item?.visits).toHaveLength(1);
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

/** The fleet's one truck, reported at START. */
async function truckAt(fleetId: string, latitude: number, longitude: number) {
  await createVehiclePositionStore(client, table).recordLatest(fleetId, 'veh_1', {
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
