import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Scope } from '#shared/kernel/access.ts';
import { newId } from '#shared/kernel/ids.ts';
import { generateApiKey, hashApiKey } from '#shared/keys/domain/api-key.ts';
import { createApiKeyStore } from '#shared/keys/store/api-keys.ts';
import type { Plan } from '#shared/plans/domain/plans.ts';
import { createPlanStore } from '#shared/plans/store/plans.ts';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { testKeyRecord } from '../support/keys.ts';
import { localControlTable } from '../support/local-table.ts';
import { expectProblem } from './problem.ts';
import { guidanceClient, secondsAgo } from './support-guidance.ts';

const credentials = loadCredentials();
const prod = api(credentials.base_url);
// Amarillo, TX: on I-40, where the embedded catalog has several stops within 50 miles.
const amarillo = { latitude: 35.222, longitude: -101.831, radius_miles: 50 };

/**
 * A live company key on a tiny plan of its own, written straight into the local stack's table (no
 * route issues keys yet). Its fleet is new, so no other suite's calls count toward its month.
 */
async function keyOnTinyPlan(
  limits: Pick<Plan, 'monthlyQuota' | 'stationQueryBudget'>,
  scopes: Scope[] = ['guidance:read'],
): Promise<string> {
  const { client, tableName } = localControlTable();
  const planName = `e2e-tiny-${newId('request')}`;
  await createPlanStore(client, tableName).put({
    name: planName,
    rateLimitPerMin: 1_000,
    priceQueryCap: 25,
    ...limits,
  });
  const key = generateApiKey('live');
  await createApiKeyStore(client, tableName).create(
    hashApiKey(key),
    testKeyRecord({
      keyId: newId('apiKey'),
      name: 'e2e tiny plan',
      ownerType: 'company',
      partnerId: null,
      fleetId: newId('fleet'),
      mode: 'live',
      scopes,
      status: 'active',
      planName,
      createdAt: new Date().toISOString().replace('Z', '000Z'),
    }),
  );
  return key;
}

describe.runIf(isLocalTarget())('monthly limits over HTTP (local stack)', () => {
  it('429 quota_exceeded past the stations quota, with limit, used and the reset, and /v1/me agrees', async () => {
    const key = await keyOnTinyPlan({ monthlyQuota: { stations: 3 }, stationQueryBudget: 1_000 });

    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await prod.get('/v1/stations', { key, query: { ...amarillo, limit: 1 } })).status);
    }
    const refused = await prod.get('/v1/stations', { key, query: { ...amarillo, limit: 1 } });
    const me = await prod.get('/v1/me', { key });

    expect(statuses).toEqual([200, 200, 200]);
    expectProblem(refused, 429, 'quota_exceeded');
    expect(refused.json).toMatchObject({ limit: 3, used: 3 });
    expect(refused.json.hint).toMatch(/resets at \d{4}-\d{2}-01T00:00:00\.000000Z/);
    expect(refused.headers.get('retry-after')).toBeNull();
    // GET /v1/me is exempt: it answers past the quota and shows exactly the admitted calls.
    expect(me.status, me.text).toBe(200);
    expect(me.json.plan.monthly_quota).toEqual({ stations: 3 });
    expect(me.json.plan.used_this_month.stations).toBe(3);
    expect(me.json.plan.station_results_this_month).toBe(3);
  });

  it('429 station_budget_exceeded for a query whose stations would cross the budget, and /v1/me agrees', async () => {
    const key = await keyOnTinyPlan({ monthlyQuota: {}, stationQueryBudget: 5 });

    const first = await prod.get('/v1/stations', { key, query: { ...amarillo, limit: 4 } });
    const crossing = await prod.get('/v1/stations', { key, query: { ...amarillo, limit: 4 } });
    const fitting = await prod.get('/v1/stations', { key, query: { ...amarillo, limit: 1 } });
    const me = await prod.get('/v1/me', { key });

    expect(first.status, first.text).toBe(200);
    expect(first.json.data).toHaveLength(4);
    expectProblem(crossing, 429, 'station_budget_exceeded');
    expect(crossing.json).toMatchObject({ limit: 5, used: 4 });
    // The refused query charged nothing: one more station still fits.
    expect(fitting.status, fitting.text).toBe(200);
    expect(me.json.plan).toMatchObject({
      station_query_budget: 5,
      station_results_this_month: 5,
      station_results_overage: 0,
    });
    // Each limit is independent: the refused query was still a call of the stations family
    // (authenticated, validated and answered), so all three calls are on the month's count.
    expect(me.json.plan.used_this_month.stations).toBe(3);
  });

  it('keeps live guidance going past the budget, counted as overage, while station queries are refused', async () => {
    const key = await keyOnTinyPlan({ monthlyQuota: {}, stationQueryBudget: 0 }, [
      'vehicles:manage',
      'locations:write',
      'guidance:read',
      'guidance:manage',
    ]);
    const guidance = guidanceClient(prod, { key });
    const truck = await guidance.newTruck();
    // Dallas at 30 %, toward Denver: the first plan must buy fuel, so it recommends stops.
    await guidance.drive(truck, [
      { latitude: 32.7767, longitude: -96.797, recorded_at: secondsAgo(5), fuel_level_percent: 30 },
    ]);

    const started = await guidance.start(truck.id, {
      destination: { latitude: 39.7392, longitude: -104.9903, name: 'Denver' },
      min_arrival_fuel_percent: 15,
    });
    const read = await guidance.current(truck.id);
    const query = await prod.get('/v1/stations', { key, query: { ...amarillo, limit: 1 } });
    const me = await prod.get('/v1/me', { key });

    const stops = started.json.stops.length;
    expect(stops).toBeGreaterThan(0);
    expect(read.stops).toHaveLength(stops);
    expectProblem(query, 429, 'station_budget_exceeded');
    expect(query.json).toMatchObject({ limit: 0, used: 0 });
    // The start returned the stops: all of them overage, none in the budget. Reading the session
    // again is not charged (a poll returns no new station results).
    expect(me.json.plan).toMatchObject({ station_results_this_month: 0, station_results_overage: stops });
  });
  it('charges a trip its fuel stops; a trip that would cross the budget is 429 and stores nothing', async () => {
    const scopes: Scope[] = ['vehicles:manage', 'trips:manage'];
    const trip = (truck: { id: string }) => ({
      vehicle_id: truck.id,
      origin: { latitude: 32.7767, longitude: -96.797, name: 'Dallas' },
      destination: { latitude: 39.7392, longitude: -104.9903, name: 'Denver' },
      planned_start_at: new Date(Date.now() + 3_600_000).toISOString(),
      auto_optimize: true,
      // Dallas → Denver on 30 % of a tank must buy: the trip has fuel stops.
      start_fuel_percent: 30,
    });

    const roomy = await keyOnTinyPlan({ monthlyQuota: {}, stationQueryBudget: 1_000 }, scopes);
    const planned = await prod.post('/v1/trips', {
      key: roomy,
      body: trip(await guidanceClient(prod, { key: roomy }).newTruck()),
      idempotencyKey: randomUUID(),
    });
    expect(planned.status, planned.text).toBe(201);
    const fuelStops = planned.json.stops.filter((s: { type: string }) => s.type === 'fuel').length;
    expect(fuelStops).toBeGreaterThan(0);
    expect((await prod.get('/v1/me', { key: roomy })).json.plan).toMatchObject({
      station_results_this_month: fuelStops,
      station_results_overage: 0,
    });

    const tiny = await keyOnTinyPlan({ monthlyQuota: {}, stationQueryBudget: 0 }, scopes);
    const truck = await guidanceClient(prod, { key: tiny }).newTruck();
    const refused = await prod.post('/v1/trips', {
      key: tiny,
      body: trip(truck),
      idempotencyKey: randomUUID(),
    });
    expectProblem(refused, 429, 'station_budget_exceeded');
    expect(refused.json).toMatchObject({ limit: 0, used: 0 });
    const listed = await prod.get('/v1/trips', { key: tiny, query: { vehicle_id: truck.id } });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.data).toEqual([]);
    expect((await prod.get('/v1/me', { key: tiny })).json.plan.station_results_this_month).toBe(0);
  });
});
