import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { generateApiKey, hashApiKey } from '../../shared/domain/api-keys.ts';
import { createHttpHandler } from '../../shared/platform/http/handler.ts';
import type { PlatformDeps } from '../../shared/platform/http/platform-deps.ts';
import type { HttpEvent } from '../../shared/platform/http/types.ts';
import { newId } from '../../shared/platform/ids.ts';
import { fixedClock } from '../../shared/platform/time.ts';
import { createApiKeyStore } from '../../shared/store/api-keys.ts';
import { createCounters } from '../../shared/store/counters.ts';
import { createPlanStore } from '../../shared/store/plans.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '../support/dynamodb.ts';

const client = testDocumentClient();
let table: string;
const clock = fixedClock(Date.parse('2026-11-21T12:00:10Z'));

const route = defineRoute({
  operationId: 'probe',
  method: 'GET',
  path: '/v1/probe',
  summary: 'probe',
  tags: [],
  access: 'key',
  scope: null,
  family: 'vehicles',
  role: 'api',
  idempotent: false,
  request: {},
  responses: [{ status: 200, description: 'ok' }],
  handler: 'n/a',
});

function depsFor(tableName: string): PlatformDeps {
  const keys = createApiKeyStore(client, tableName);
  const plans = createPlanStore(client, tableName);
  return {
    stage: 'prod',
    clock,
    findKey: (hash) => keys.findByHash(hash),
    hasGrant: async () => false,
    plan: (name) => plans.get(name),
    counters: createCounters(client, tableName),
  };
}

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

async function keyOnPlan(planName: string, rateLimitPerMin: number) {
  await createPlanStore(client, table).put({
    name: planName,
    rateLimitPerMin,
    monthlyQuota: {},
    stationQueryBudget: 0,
  });
  const key = generateApiKey('live');
  await createApiKeyStore(client, table).put(hashApiKey(key), {
    keyId: newId('apiKey'),
    name: 'limiter test',
    ownerType: 'company',
    partnerId: null,
    fleetId: newId('fleet'),
    mode: 'live',
    scopes: ['vehicles:manage'],
    status: 'active',
    planName,
    createdAt: '2026-11-21T12:00:00.000000Z',
  });
  return key;
}

beforeAll(async () => {
  table = await createTestTable(client, 'chain');
});
afterAll(() => deleteTestTable(client, table));

describe('the per-key rate limit against DynamoDB', () => {
  it('counts down RateLimit-Remaining and answers 429 with Retry-After past the limit', async () => {
    const key = await keyOnPlan('tiny', 3);
    const handler = createHttpHandler(
      route,
      async () => ({ status: 200, body: { ok: true } }),
      () => depsFor(table),
    );

    const statuses = [];
    const remaining = [];
    for (let i = 0; i < 4; i++) {
      const response = await handler(event(key), context);
      statuses.push(response.statusCode);
      remaining.push(response.headers?.['RateLimit-Remaining']);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(remaining).toEqual(['2', '1', '0', '0']);

    const limited = await handler(event(key), context);
    const problem = JSON.parse(limited.body ?? '{}');
    // 12:00:10 → the window resets at 12:01:00, 50 s later.
    expect(problem).toMatchObject({ code: 'rate_limited', retry_after: 50, limit: 3 });
    expect(limited.headers?.['Retry-After']).toBe('50');
    expect(limited.headers?.['X-RateLimit-Reset']).toBe(String(Date.parse('2026-11-21T12:01:00Z') / 1000));
  });

  it('admits exactly the limit when requests arrive at once (atomic counter)', async () => {
    const key = await keyOnPlan('tiny-concurrent', 5);
    const handler = createHttpHandler(
      route,
      async () => ({ status: 200, body: {} }),
      () => depsFor(table),
    );
    const responses = await Promise.all(Array.from({ length: 12 }, () => handler(event(key), context)));
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(5);
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(7);
  });

  it('starts a fresh window the next minute', async () => {
    const key = await keyOnPlan('tiny-window', 1);
    const handler = createHttpHandler(
      route,
      async () => ({ status: 200, body: {} }),
      () => depsFor(table),
    );
    expect((await handler(event(key), context)).statusCode).toBe(200);
    expect((await handler(event(key), context)).statusCode).toBe(429);
    clock.advance(60_000);
    expect((await handler(event(key), context)).statusCode).toBe(200);
  });
});

describe('a failing key store', () => {
  it('answers 503 auth_unavailable, not 500', async () => {
    const handler = createHttpHandler(
      route,
      async () => ({ status: 200, body: {} }),
      () => depsFor('no-such-table'),
    );
    const response = await handler(event(generateApiKey('live')), context);
    expect(response.statusCode).toBe(503);
    expect(JSON.parse(response.body ?? '{}').code).toBe('auth_unavailable');
  });
});
