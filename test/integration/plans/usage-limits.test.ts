import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meResource } from '#shared/accounts/api/serializers.ts';
import { describeAccount } from '#shared/accounts/usecases/account.ts';
import type { EndpointFamily } from '#shared/kernel/access.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { generateApiKey, hashApiKey, type Principal } from '#shared/keys/domain/api-key.ts';
import { createApiKeyStore } from '#shared/keys/store/api-keys.ts';
import type { Plan } from '#shared/plans/domain/plans.ts';
import { createCounters } from '#shared/plans/store/counters.ts';
import { createPlanStore } from '#shared/plans/store/plans.ts';
import { chargeReplannedStations, chargeStationResults } from '#shared/plans/usecases/station-budget.ts';
import { createHttpHandler } from '#shared/platform/http/handler.ts';
import type { PlatformDeps } from '#shared/platform/http/platform-deps.ts';
import { defineRoute } from '#shared/platform/http/route-definition.ts';
import type { HttpEvent } from '#shared/platform/http/types.ts';
import { createDocumentClient, createDynamoClient } from '#shared/table/dynamo-client.ts';
import { createTestTable, deleteTestTable, dynamoDbEndpoint } from '#test/support/dynamodb.ts';
import { testKeyRecord } from '#test/support/keys.ts';

const rawClient = createDynamoClient({ region: 'us-east-1', endpoint: dynamoDbEndpoint() });
const client = createDocumentClient(rawClient);
let table: string;
const NOVEMBER = Date.parse('2026-11-30T23:59:00Z');

const probe = (family: EndpointFamily) =>
  defineRoute({
    operationId: `probe-${family}`,
    method: 'GET',
    path: '/v1/probe',
    summary: 'probe',
    tags: [],
    access: 'key',
    scope: null,
    family,
    role: 'api',
    idempotent: false,
    request: {},
    responses: [{ status: 200, description: 'ok' }],
    handler: 'n/a',
  });

const context = { awsRequestId: 'test', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const event = (key: string): HttpEvent =>
  ({
    version: '2.0',
    routeKey: 'GET /v1/probe',
    rawPath: '/v1/probe',
    rawQueryString: '',
    headers: { authorization: `Bearer ${key}`, host: 'api.test' },
    requestContext: { domainName: 'api.test', http: { method: 'GET', path: '/v1/probe' } },
    isBase64Encoded: false,
  }) as unknown as HttpEvent;

/** A company key on a fresh plan of its own, with a rate limit no test reaches. */
async function companyOnPlan(plan: Omit<Plan, 'name' | 'rateLimitPerMin' | 'priceQueryCap'>) {
  const planName = `limits-${newId('request')}`;
  await createPlanStore(client, table).put({
    name: planName,
    rateLimitPerMin: 100_000,
    priceQueryCap: 25,
    ...plan,
  });
  const key = generateApiKey('live');
  const fleetId = newId('fleet');
  const keyId = newId('apiKey');
  await createApiKeyStore(client, table).create(
    hashApiKey(key),
    testKeyRecord({
      keyId,
      name: 'limits test',
      ownerType: 'company',
      partnerId: null,
      fleetId,
      mode: 'live',
      scopes: [],
      status: 'active',
      planName,
      createdAt: '2026-11-21T12:00:00.000000Z',
    }),
  );
  const principal: Principal = {
    keyId,
    keyName: 'limits test',
    ownerType: 'company',
    accountId: `cmp_of_${fleetId}`,
    partnerId: null,
    ownFleetId: fleetId,
    mode: 'live',
    scopes: [],
    planName,
    keyCreatedAt: '2026-11-01T00:00:00.000000Z',
  };
  return { key, principal };
}

function chain(family: EndpointFamily, clock: ReturnType<typeof fixedClock>) {
  const keys = createApiKeyStore(client, table);
  const plans = createPlanStore(client, table);
  const deps: PlatformDeps = {
    stage: 'prod',
    clock,
    findKey: (hash) => keys.findByHash(hash),
    hasGrant: async () => false,
    plan: (name) => plans.get(name),
    counters: createCounters(client, table),
    idempotencyStore: () => {
      throw new Error('no idempotent route here');
    },
  };
  return createHttpHandler(
    probe(family),
    async () => ({ status: 200, body: {} }),
    () => deps,
  );
}

/** GET /v1/me's plan block, as the route computes it. */
async function meAt(principal: Principal, nowMs: number) {
  const deps = {
    plans: createPlanStore(client, table),
    counters: createCounters(client, table),
    // A company key has no partner record to read.
    accounts: { get: async () => null },
  };
  return meResource(await describeAccount(deps, principal, nowMs)).plan;
}

beforeAll(async () => {
  table = await createTestTable(client, 'limits');
});
afterAll(() => deleteTestTable(client, table));

describe('the monthly quota against DynamoDB', () => {
  it('admits exactly the quota when 50 calls arrive at once, and /v1/me agrees', async () => {
    const { key, principal } = await companyOnPlan({ monthlyQuota: { vehicles: 20 }, stationQueryBudget: 0 });
    const handler = chain('vehicles', fixedClock(NOVEMBER));

    const responses = await Promise.all(Array.from({ length: 50 }, () => handler(event(key), context)));

    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(20);
    const refused = responses.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(30);
    for (const response of refused) {
      expect(JSON.parse(response.body ?? '{}')).toMatchObject({
        code: 'quota_exceeded',
        limit: 20,
        used: 20,
      });
      expect(response.headers?.['Retry-After']).toBeUndefined();
    }
    // Refused calls used nothing: the count is what was admitted.
    const me = await meAt(principal, NOVEMBER);
    expect(me.used_this_month.vehicles).toBe(20);
    expect(me.monthly_quota.vehicles).toBe(20);
  });

  it('starts again at the first instant of the next UTC month, leaving the old month as counted', async () => {
    const { key, principal } = await companyOnPlan({ monthlyQuota: { vehicles: 2 }, stationQueryBudget: 0 });
    const clock = fixedClock(NOVEMBER);
    const handler = chain('vehicles', clock);

    const november = [];
    for (let i = 0; i < 3; i++) november.push((await handler(event(key), context)).statusCode);
    const refused = JSON.parse((await handler(event(key), context)).body ?? '{}');
    clock.set(Date.parse('2026-12-01T00:00:00Z'));
    const december = [];
    for (let i = 0; i < 3; i++) december.push((await handler(event(key), context)).statusCode);

    expect(november).toEqual([200, 200, 429]);
    expect(refused.hint).toContain('2026-12-01T00:00:00.000000Z');
    expect(december).toEqual([200, 200, 429]);
    expect((await meAt(principal, NOVEMBER)).used_this_month.vehicles).toBe(2);
    expect((await meAt(principal, clock.now())).used_this_month.vehicles).toBe(2);
  });

  it('never refuses a family the plan sets no quota for, and still counts it', async () => {
    const { key, principal } = await companyOnPlan({ monthlyQuota: { vehicles: 1 }, stationQueryBudget: 0 });
    const handler = chain('fleets', fixedClock(NOVEMBER));

    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await handler(event(key), context)).statusCode);

    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect((await meAt(principal, NOVEMBER)).used_this_month.fleets).toBe(5);
  });
});

describe('the station-query budget against DynamoDB', () => {
  const budgetDeps = () => {
    const plans = createPlanStore(client, table);
    return {
      plan: (name: string) => plans.get(name),
      counters: createCounters(client, table),
      now: () => NOVEMBER,
    };
  };
  const outcome = (charge: Promise<void>) =>
    charge.then(
      () => 'charged',
      (error: { code?: string }) => error.code,
    );

  it('refuses the query that would cross the budget, charging nothing for it, and /v1/me agrees', async () => {
    const { principal } = await companyOnPlan({ monthlyQuota: {}, stationQueryBudget: 10 });
    const deps = budgetDeps();

    const first = await outcome(chargeStationResults(deps, principal, 6, 'refuse'));
    const crossing = await chargeStationResults(deps, principal, 5, 'refuse').catch((e: unknown) => e);
    const fitting = await outcome(chargeStationResults(deps, principal, 4, 'refuse'));
    const beyond = await chargeStationResults(deps, principal, 1, 'refuse').catch((e: unknown) => e);

    expect(first).toBe('charged');
    expect(crossing).toMatchObject({ code: 'station_budget_exceeded', extensions: { limit: 10, used: 6 } });
    // The refused 5 were not charged, so 4 more still fit and reach the budget exactly.
    expect(fitting).toBe('charged');
    expect(beyond).toMatchObject({ code: 'station_budget_exceeded', extensions: { limit: 10, used: 10 } });
    const me = await meAt(principal, NOVEMBER);
    expect(me).toMatchObject({
      station_query_budget: 10,
      station_results_this_month: 10,
      station_results_overage: 0,
    });
  });

  it('never overshoots when queries arrive at once', async () => {
    const { principal } = await companyOnPlan({ monthlyQuota: {}, stationQueryBudget: 25 });
    const deps = budgetDeps();

    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => outcome(chargeStationResults(deps, principal, 3, 'refuse'))),
    );

    // 8 answers of 3 fit in 25; the others are refused whole.
    expect(outcomes.filter((o) => o === 'charged')).toHaveLength(8);
    expect(outcomes.filter((o) => o === 'station_budget_exceeded')).toHaveLength(12);
    expect((await meAt(principal, NOVEMBER)).station_results_this_month).toBe(24);
  });

  it('keeps guidance going past the budget, counted as overage, while station queries are refused', async () => {
    const { principal } = await companyOnPlan({ monthlyQuota: {}, stationQueryBudget: 5 });
    const deps = budgetDeps();

    await chargeStationResults(deps, principal, 4, 'refuse');
    const guidance = [];
    for (let i = 0; i < 3; i++)
      guidance.push(await outcome(chargeStationResults(deps, principal, 2, 'overage')));
    const query = await outcome(chargeStationResults(deps, principal, 1, 'refuse'));

    expect(guidance).toEqual(['charged', 'charged', 'charged']);
    // 1 station of budget was left: no 2-stop answer fitted whole, so all 6 are overage.
    expect(query).toBe('charged');
    const me = await meAt(principal, NOVEMBER);
    expect(me).toMatchObject({ station_results_this_month: 5, station_results_overage: 6 });
  });

  it('charges a guidance worker’s re-plan against the budget a key’s charge recorded, as overage past it', async () => {
    // Arrange: a key's query of 3 stations records the budget (5) on the month's item.
    const { principal } = await companyOnPlan({ monthlyQuota: {}, stationQueryBudget: 5 });
    const deps = budgetDeps();
    const fleet = { accountId: principal.accountId, fleetId: principal.ownFleetId as string };
    const before = await deps.counters.recordedLimit(fleet.accountId, '2026-11', 'station_results');
    await chargeStationResults(deps, principal, 3, 'refuse');

    // Act: re-plans without a key: 2 new stations fit, 1 more does not.
    await chargeReplannedStations(deps, fleet, 2);
    await chargeReplannedStations(deps, fleet, 1);

    // Assess
    expect(before).toBeNull();
    expect(await deps.counters.recordedLimit(fleet.accountId, '2026-11', 'station_results')).toBe(5);
    const me = await meAt(principal, NOVEMBER);
    expect(me).toMatchObject({ station_results_this_month: 5, station_results_overage: 1 });
  });
});
