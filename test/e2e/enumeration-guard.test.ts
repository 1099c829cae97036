import polyline from '@mapbox/polyline';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_SCOPES } from '#shared/kernel/access.ts';
import { newId } from '#shared/kernel/ids.ts';
import { generateApiKey, hashApiKey } from '#shared/keys/domain/api-key.ts';
import { createApiKeyStore } from '#shared/keys/store/api-keys.ts';
import { createPlanStore } from '#shared/plans/store/plans.ts';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { type ApiResponse, api } from '../support/http-client.ts';
import { testKeyRecord } from '../support/keys.ts';
import { localControlTable } from '../support/local-table.ts';
import { expectProblem } from './problem.ts';

interface EnumerationProblem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  hint: string;
  request_id: string;
  limit: number;
  used: number;
  cool_down_until: string;
}

/**
 * The guard is per key and a tripped key is refused for its cool-down, so this suite sweeps with a
 * key of its own (written straight into the local stack's table, on a plan of its own with tight
 * thresholds): the seeded keys the other suites share are never tripped.
 */
describe.runIf(isLocalTarget())('the enumeration guard over HTTP (local stack)', () => {
  const credentials = loadCredentials();
  const prod = api(credentials.base_url);
  const planName = 'enumeration-e2e';
  let sweeper: { key: string };
  let corridorSweeper: { key: string };

  beforeAll(async () => {
    const { client, tableName } = localControlTable();
    await createPlanStore(client, tableName).put({
      name: planName,
      rateLimitPerMin: 100_000,
      monthlyQuota: {},
      stationQueryBudget: 100_000_000,
      priceQueryCap: 25,
      // The lattice rule is what the first test trips: the area count is out of its way.
      enumerationGuard: {
        latticeMinCells: 9,
        maxDistinctCells: 50,
        maxAreaCells: 1_000,
        coolDownMinutes: 10,
      },
    });
    await createPlanStore(client, tableName).put({
      name: `${planName}-areas`,
      rateLimitPerMin: 100_000,
      monthlyQuota: {},
      stationQueryBudget: 100_000_000,
      priceQueryCap: 25,
      enumerationGuard: {
        latticeMinCells: 100,
        maxDistinctCells: 100,
        maxAreaCells: 40,
        coolDownMinutes: 10,
      },
    });
    sweeper = { key: await keyOn(planName, 'Enumeration e2e sweeper') };
    // A fleet of its own: no vehicles anywhere (every cell is far), and no other suite's calls.
    corridorSweeper = {
      key: await keyOn(`${planName}-areas`, 'Enumeration e2e corridor sweeper', newId('fleet')),
    };
  });

  /** A live company key on `plan` (of the demo company unless told), written straight into the table. */
  async function keyOn(plan: string, name: string, fleetId = credentials.fleets.company): Promise<string> {
    const { client, tableName } = localControlTable();
    const key = generateApiKey('live');
    await createApiKeyStore(client, tableName).create(
      hashApiKey(key),
      testKeyRecord({
        keyId: newId('apiKey'),
        name,
        ownerType: 'company',
        partnerId: null,
        fleetId,
        mode: 'live',
        scopes: [...COMPANY_SCOPES],
        status: 'active',
        planName: plan,
        createdAt: new Date().toISOString(),
      }),
    );
    return key;
  }

  it('refuses a lattice sweep far from the fleet with 403 enumeration_suspected, for this key only', async () => {
    // Arrange: a 3×3 lattice one degree apart over Montana, where the demo fleet has no trucks.
    const lattice = [46, 47, 48].flatMap((latitude) =>
      [-112, -111, -110].map((longitude) => ({ latitude, longitude })),
    );

    // Act
    const statuses: number[] = [];
    let last: ApiResponse<EnumerationProblem> | undefined;
    for (const point of lattice) {
      last = await prod.get<EnumerationProblem>('/v1/stations', {
        ...sweeper,
        query: { ...point, radius_miles: 50, limit: 1 },
      });
      statuses.push(last.status);
    }
    const alongRoute = await prod.post('/v1/stations/along-route', {
      ...sweeper,
      body: {
        origin: { latitude: 35.2, longitude: -101.8 },
        destination: { latitude: 35.4, longitude: -97.5 },
      },
    });
    const otherKey = await prod.get('/v1/stations', {
      key: credentials.keys.company_live,
      query: { latitude: 46, longitude: -112, radius_miles: 50, limit: 1 },
    });

    // Assess: eight answered, the ninth distinct cell of the lattice refused with the cool-down end.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 403]);
    if (!last) throw new Error('no response');
    expectProblem(last, 403, 'enumeration_suspected');
    expect(last.json).toMatchObject({ limit: 9, used: 9 });
    const coolDownUntil = Date.parse(last.json.cool_down_until);
    expect(coolDownUntil).toBeGreaterThan(Date.now() + 5 * 60_000);
    expect(last.json.hint).toContain(last.json.cool_down_until);
    // Still cooling down: the other station query is refused too, before any routing.
    expectProblem(alongRoute, 403, 'enumeration_suspected');
    expect(alongRoute.json.cool_down_until).toBe(last.json.cool_down_until);
    // Per key: the fleet's other keys are unaffected.
    expect(otherKey.status).toBe(200);
  });

  it('refuses a sweep by along-route polylines between the same two ends, by the areas they cover', async () => {
    // Arrange: Reno to Salt Lake City, each polyline drawn through another waypoint over Nevada,
    // Oregon and Idaho: the two ends never change, the corridors sweep the region.
    const reno: [number, number] = [39.53, -119.81];
    const saltLake: [number, number] = [40.76, -111.89];
    const waypoints = Array.from({ length: 12 }, (_, i): [number, number] => [
      37.5 + (i % 4) * 2,
      -121 + Math.floor(i / 4) * 3,
    ]);

    // Act
    const statuses: number[] = [];
    let last: ApiResponse<EnumerationProblem> | undefined;
    for (const waypoint of waypoints) {
      last = await prod.post<EnumerationProblem>('/v1/stations/along-route', {
        ...corridorSweeper,
        body: { polyline: polyline.encode([reno, waypoint, saltLake]), max_results: 1 },
      });
      statuses.push(last.status);
      if (last.status !== 200) break;
    }

    const me = await prod.get('/v1/me', corridorSweeper);

    // Assess: answered at first, then refused on the area count, with its limit.
    expect(statuses[0]).toBe(200);
    expect(statuses.at(-1)).toBe(403);
    if (!last) throw new Error('no response');
    expectProblem(last, 403, 'enumeration_suspected');
    expect(last.json.limit).toBe(40);
    expect(last.json.used).toBeGreaterThanOrEqual(40);
    expect(last.json.detail).toContain('areas');
    // The refused call still counted as a call of the stations family (each limit is independent).
    expect(me.status, me.text).toBe(200);
    expect(me.json.plan.used_this_month.stations).toBe(statuses.length);
  });
});
