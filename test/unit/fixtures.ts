import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { vi } from 'vitest';
import { COMPANY_SCOPES, SCOPES } from '#shared/kernel/access.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { type ApiKeyRecord, hashApiKey, type Principal } from '#shared/keys/domain/api-key.ts';
import type { Plan } from '#shared/plans/domain/plans.ts';
import type { Counters } from '#shared/plans/store/counters.ts';
import type { FindKey } from '#shared/platform/http/authenticate.ts';
import type { HasGrant } from '#shared/platform/http/authorize.ts';
import type { PlatformDeps } from '#shared/platform/http/platform-deps.ts';

/** Well-formed ids (26 Crockford characters), written out so a test never depends on the generator. */
export const COMPANY_FLEET_ID = 'flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2';
export const GRANTED_FLEET_ID = 'flt_01JD80000000000000000000AA';
export const OTHER_FLEET_ID = 'flt_01JD80000000000000000000ZZ';
export const COMPANY_ACCOUNT_ID = 'cmp_01JD7ZK3M4N5P6Q7R8S9T0V1W7';
export const PARTNER_ID = 'ptr_01JD7ZK3M4N5P6Q7R8S9T0V1W3';
export const VEHICLE_ID = 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4';

/** Syntactically valid keys: prefix + 32 base62 characters. */
export const LIVE_KEY = 'svc_live_abcdefghijklmnopqrstuvwxyz012345';
export const OTHER_LIVE_KEY = 'svc_live_ZYXWVUTSRQPONMLKJIHGFEDCBA987654';
export const TEST_KEY = 'svc_test_abcdefghijklmnopqrstuvwxyz012345';

export function companyKeyRecord(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    keyId: 'key_01JD7ZK3M4N5P6Q7R8S9T0V1W5',
    name: 'dispatch backend',
    ownerType: 'company',
    accountId: COMPANY_ACCOUNT_ID,
    partnerId: null,
    fleetId: COMPANY_FLEET_ID,
    mode: 'live',
    scopes: [...COMPANY_SCOPES],
    status: 'active',
    planName: 'starter',
    createdAt: '2026-11-01T00:00:00.000000Z',
    expiresAt: null,
    revokedReason: null,
    lastUsedAt: null,
    createdBy: 'operator',
    ...overrides,
  };
}

export function partnerKeyRecord(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    keyId: 'key_01JD7ZK3M4N5P6Q7R8S9T0V1W6',
    name: 'telematics partner',
    ownerType: 'partner',
    accountId: PARTNER_ID,
    partnerId: PARTNER_ID,
    fleetId: null,
    mode: 'live',
    scopes: [...SCOPES],
    status: 'active',
    planName: 'starter',
    createdAt: '2026-11-01T00:00:00.000000Z',
    expiresAt: null,
    revokedReason: null,
    lastUsedAt: null,
    createdBy: 'operator',
    ...overrides,
  };
}

export function principalOf(record: ApiKeyRecord): Principal {
  return {
    keyId: record.keyId,
    keyName: record.name,
    ownerType: record.ownerType,
    accountId: record.accountId,
    partnerId: record.partnerId,
    ownFleetId: record.fleetId,
    mode: record.mode,
    scopes: record.scopes,
    planName: record.planName,
    keyCreatedAt: record.createdAt,
  };
}

export const STARTER_PLAN: Plan = {
  name: 'starter',
  rateLimitPerMin: 120,
  monthlyQuota: { vehicles: 1000 },
  stationQueryBudget: 1000,
  priceQueryCap: 25,
};

/** 2026-11-21T22:26:10.123Z: 10.123 s into its minute, so the window resets in 50 s. */
export const NOW_MS = Date.UTC(2026, 10, 21, 22, 26, 10, 123);
export const NOW_WINDOW_START_S = Date.UTC(2026, 10, 21, 22, 26, 0, 0) / 1000;
export const NOW_WINDOW_RESET_AT_S = Date.UTC(2026, 10, 21, 22, 27, 0, 0) / 1000;
export const NOW_RESET_SECONDS = 50;

export type FakeDeps = PlatformDeps & {
  findKey: ReturnType<typeof vi.fn<FindKey>>;
  hasGrant: ReturnType<typeof vi.fn<HasGrant>>;
  plan: ReturnType<typeof vi.fn<PlatformDeps['plan']>>;
  counters: {
    hitRateWindow: ReturnType<typeof vi.fn<Counters['hitRateWindow']>>;
    addUsage: ReturnType<typeof vi.fn<Counters['addUsage']>>;
    addUsageWithin: ReturnType<typeof vi.fn<Counters['addUsageWithin']>>;
    readUsage: ReturnType<typeof vi.fn<Counters['readUsage']>>;
  };
  idempotencyStore: ReturnType<typeof vi.fn<NonNullable<PlatformDeps['idempotencyStore']>>>;
};

/**
 * Platform ports as plain fakes: `keys` maps the presented plaintext key to its record (the fake
 * looks the record up by the hash the chain computes), grants are `partnerId/fleetId` pairs.
 */
export function fakePlatformDeps(
  options: { stage?: PlatformDeps['stage']; keys?: Record<string, ApiKeyRecord>; grants?: string[] } = {},
): FakeDeps {
  const byHash = new Map(
    Object.entries(options.keys ?? {}).map(([key, record]) => [
      hashApiKey(key),
      { ...record, secretExpiresAt: null },
    ]),
  );
  const grants = new Set(options.grants ?? []);
  return {
    stage: options.stage ?? 'prod',
    clock: fixedClock(NOW_MS),
    findKey: vi.fn<FindKey>(async (hash) => byHash.get(hash) ?? null),
    hasGrant: vi.fn<HasGrant>(async (partnerId, fleetId) => grants.has(`${partnerId}/${fleetId}`)),
    plan: vi.fn<PlatformDeps['plan']>(async (name) => (name === STARTER_PLAN.name ? STARTER_PLAN : null)),
    counters: {
      hitRateWindow: vi.fn<Counters['hitRateWindow']>(async () => 1),
      addUsage: vi.fn<Counters['addUsage']>(async () => {}),
      // Admits every call, as the first of its month.
      addUsageWithin: vi.fn<Counters['addUsageWithin']>(async (_account, _period, _counter, amount) => ({
        admitted: true,
        used: amount,
      })),
      readUsage: vi.fn<Counters['readUsage']>(async () => ({})),
    },
    // Idempotency is exercised against DynamoDB Local (test/integration/platform/http-chain.test.ts).
    idempotencyStore: vi.fn<NonNullable<PlatformDeps['idempotencyStore']>>(() => {
      throw new Error('unit tests use no idempotent route');
    }),
  };
}

export interface EventOptions {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  pathParameters?: Record<string, string>;
  queryStringParameters?: Record<string, string>;
  body?: string;
  isBase64Encoded?: boolean;
}

/** The parts of an API Gateway HTTP API (v2) event the chain reads; header names lower-case. */
export function httpEvent(options: EventOptions = {}): APIGatewayProxyEventV2 {
  const method = options.method ?? 'GET';
  const path = options.path ?? '/v1/vehicles';
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: options.headers ?? {},
    pathParameters: options.pathParameters,
    queryStringParameters: options.queryStringParameters,
    body: options.body,
    isBase64Encoded: options.isBase64Encoded ?? false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.test',
      domainPrefix: 'api',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'vitest' },
      requestId: 'apigw-request',
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: '21/Nov/2026:22:26:10 +0000',
      timeEpoch: NOW_MS,
    },
  };
}

/** A minimal Lambda context (middy only calls getRemainingTimeInMillis, for its early timeout). */
export function lambdaContext(): Context {
  return {
    awsRequestId: 'aws-request-1',
    functionName: 'unit-test',
    getRemainingTimeInMillis: () => 10_000,
  } as unknown as Context;
}
