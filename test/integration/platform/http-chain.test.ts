import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { generateApiKey, hashApiKey } from '#shared/keys/domain/api-key.ts';
import { createApiKeyStore } from '#shared/keys/store/api-keys.ts';
import { createCounters } from '#shared/plans/store/counters.ts';
import { createPlanStore } from '#shared/plans/store/plans.ts';
import { createHttpHandler } from '#shared/platform/http/handler.ts';
import { createIdempotencyStore } from '#shared/platform/http/idempotency.ts';
import type { PlatformDeps } from '#shared/platform/http/platform-deps.ts';
import { defineRoute } from '#shared/platform/http/route-definition.ts';
import type { HttpEvent } from '#shared/platform/http/types.ts';
import { createDocumentClient, createDynamoClient } from '#shared/table/dynamo-client.ts';
import { createTestTable, deleteTestTable, dynamoDbEndpoint } from '#test/support/dynamodb.ts';
import { testKeyRecord } from '#test/support/keys.ts';

const rawClient = createDynamoClient({ region: 'us-east-1', endpoint: dynamoDbEndpoint() });
const client = createDocumentClient(rawClient);
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
    idempotencyStore: (operationId) => createIdempotencyStore(tableName, rawClient, operationId),
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

/** The key's holder: a company (its own fleet) or a partner (acting for granted fleets). */
type Holder = { ownerType: 'company'; fleetId: string } | { ownerType: 'partner'; partnerId: string };

async function keyOnPlan(
  planName: string,
  rateLimitPerMin: number,
  holder: Holder = { ownerType: 'company', fleetId: newId('fleet') },
) {
  await createPlanStore(client, table).put({
    name: planName,
    rateLimitPerMin,
    monthlyQuota: {},
    stationQueryBudget: 0,
    priceQueryCap: 25,
  });
  const key = generateApiKey('live');
  await createApiKeyStore(client, table).create(
    hashApiKey(key),
    testKeyRecord({
      keyId: newId('apiKey'),
      name: 'limiter test',
      ownerType: holder.ownerType,
      partnerId: holder.ownerType === 'partner' ? holder.partnerId : null,
      fleetId: holder.ownerType === 'company' ? holder.fleetId : null,
      mode: 'live',
      scopes: ['vehicles:manage'],
      status: 'active',
      planName,
      createdAt: '2026-11-21T12:00:00.000000Z',
    }),
  );
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

describe('Idempotency-Key on an idempotent route', () => {
  const idempotentRoute = defineRoute({
    ...route,
    operationId: 'probeCreate',
    method: 'POST',
    path: '/v1/probes',
    // A fleet route, like POST /v1/routes: the acting fleet is part of the key's scope.
    access: 'fleet',
    idempotent: true,
    request: { body: z.object({ name: z.string(), size: z.number().optional() }) },
  });

  const post = (key: string, body: unknown, idempotencyKey?: string, fleetHeader?: string): HttpEvent => {
    const base = event(key);
    return {
      ...base,
      routeKey: 'POST /v1/probes',
      headers: {
        ...base.headers,
        'content-type': 'application/json',
        ...(fleetHeader === undefined ? {} : { 'svc-fleet': fleetHeader }),
        ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
      },
      requestContext: { ...base.requestContext, http: { method: 'POST', path: '/v1/probes' } },
      body: JSON.stringify(body),
    } as unknown as HttpEvent;
  };

  function counting(deps: () => PlatformDeps = () => depsFor(table)) {
    let runs = 0;
    const handler = createHttpHandler(
      idempotentRoute,
      async ({ body }) => {
        runs += 1;
        return { status: 201, body: { id: `probe-${runs}`, name: body.name } };
      },
      deps,
    );
    return { handler, runs: () => runs };
  }

  it('400 idempotency_key_required when the header is missing or longer than 64 characters', async () => {
    const key = await keyOnPlan('idem-1', 1000);
    const { handler, runs } = counting();
    for (const idempotencyKey of [undefined, '', 'k'.repeat(65)]) {
      const response = await handler(post(key, { name: 'a' }, idempotencyKey), context);
      expect(response.statusCode).toBe(400);
      expect(JSON.parse(response.body ?? '{}').code).toBe('idempotency_key_required');
    }
    expect((await handler(post(key, { name: 'a' }, 'k'.repeat(64)), context)).statusCode).toBe(201);
    expect(runs()).toBe(1);
  });

  it('replays the original status and body for the same key and body, running the handler once', async () => {
    const key = await keyOnPlan('idem-2', 1000);
    const { handler, runs } = counting();
    const first = await handler(post(key, { name: 'a', size: 1 }, 'replay-1'), context);
    // Same body, members in another order: still the same request.
    const second = await handler(post(key, { size: 1, name: 'a' }, 'replay-1'), context);

    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers?.['Idempotent-Replayed']).toBe('true');
    expect(first.headers?.['Idempotent-Replayed']).toBeUndefined();
    expect(second.headers?.['Request-Id']).not.toBe(first.headers?.['Request-Id']);
    expect(runs()).toBe(1);
  });

  it('422 idempotency_key_reuse for the same key with another body', async () => {
    const key = await keyOnPlan('idem-3', 1000);
    const { handler } = counting();
    await handler(post(key, { name: 'a' }, 'reuse-1'), context);
    const response = await handler(post(key, { name: 'b' }, 'reuse-1'), context);
    expect(response.statusCode).toBe(422);
    expect(JSON.parse(response.body ?? '{}').code).toBe('idempotency_key_reuse');
  });

  it('409 idempotency_conflict while the first request with the key is in flight', async () => {
    const key = await keyOnPlan('idem-4', 1000);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = createHttpHandler(
      idempotentRoute,
      async () => {
        started();
        await gate;
        return { status: 201, body: { ok: true } };
      },
      () => depsFor(table),
    );
    const first = slow(post(key, { name: 'a' }, 'inflight-1'), context);
    await running;
    const second = await slow(post(key, { name: 'a' }, 'inflight-1'), context);
    release();
    expect(second.statusCode).toBe(409);
    expect(JSON.parse(second.body ?? '{}').code).toBe('idempotency_conflict');
    expect((await first).statusCode).toBe(201);
  });

  it('shares a key across the keys of one company: a rotated key replays, never creates twice', async () => {
    const company: Holder = { ownerType: 'company', fleetId: newId('fleet') };
    const [oldKey, newKey] = [
      await keyOnPlan('idem-5', 1000, company),
      await keyOnPlan('idem-5', 1000, company),
    ];
    const { handler, runs } = counting();
    const first = await handler(post(oldKey, { name: 'a' }, 'rotated-mid-retry'), context);
    const retried = await handler(post(newKey, { name: 'a' }, 'rotated-mid-retry'), context);
    const otherBody = await handler(post(newKey, { name: 'b' }, 'rotated-mid-retry'), context);

    expect(retried.statusCode).toBe(201);
    expect(retried.body).toBe(first.body);
    expect(retried.headers?.['Idempotent-Replayed']).toBe('true');
    // The stored fingerprint still guards the key, whichever of the company's keys sends it.
    expect(otherBody.statusCode).toBe(422);
    expect(JSON.parse(otherBody.body ?? '{}').code).toBe('idempotency_key_reuse');
    expect(runs()).toBe(1);
  });

  it('keeps accounts apart: another company with the same header value is a new request', async () => {
    const [a, b] = [await keyOnPlan('idem-6', 1000), await keyOnPlan('idem-6', 1000)];
    const { handler, runs } = counting();
    await handler(post(a, { name: 'a' }, 'shared-header'), context);
    const other = await handler(post(b, { name: 'other body' }, 'shared-header'), context);
    expect(other.statusCode).toBe(201);
    expect(runs()).toBe(2);
  });

  it('keeps fleets apart: a partner acting for two fleets with one header value makes two requests', async () => {
    const partnerId = newId('partner');
    const [fleetA, fleetB] = [newId('fleet'), newId('fleet')];
    const key = await keyOnPlan('idem-8', 1000, { ownerType: 'partner', partnerId });
    const { handler, runs } = counting(() => ({
      ...depsFor(table),
      hasGrant: async (partner, fleet) => partner === partnerId && [fleetA, fleetB].includes(fleet),
    }));
    const forA = await handler(post(key, { name: 'a' }, 'per-fleet', fleetA), context);
    const forB = await handler(post(key, { name: 'a' }, 'per-fleet', fleetB), context);
    const againA = await handler(post(key, { name: 'a' }, 'per-fleet', fleetA), context);

    expect([forA.statusCode, forB.statusCode]).toEqual([201, 201]);
    expect(JSON.parse(forB.body ?? '{}').id).not.toBe(JSON.parse(forA.body ?? '{}').id);
    expect(againA.body).toBe(forA.body);
    expect(runs()).toBe(2);
  });

  it('stores nothing for a failed attempt, so a retry with the same key runs again', async () => {
    const key = await keyOnPlan('idem-7', 1000);
    let attempts = 0;
    const flaky = createHttpHandler(
      idempotentRoute,
      async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('transient');
        return { status: 201, body: { attempt: attempts } };
      },
      () => depsFor(table),
    );
    expect((await flaky(post(key, { name: 'a' }, 'retry-1'), context)).statusCode).toBe(500);
    const retried = await flaky(post(key, { name: 'a' }, 'retry-1'), context);
    expect(retried.statusCode).toBe(201);
    expect(JSON.parse(retried.body ?? '{}')).toEqual({ attempt: 2 });
  });
});
