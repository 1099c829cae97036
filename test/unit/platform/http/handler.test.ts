import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '#shared/api/route-table.ts';
import {
  RouteCapacityError,
  RouteTimeoutError,
  RoutingUnreachableError,
} from '#shared/geo/routing-errors.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { createFallbackHandler, createHttpHandler } from '#shared/platform/http/handler.ts';
import type { PlatformDeps } from '#shared/platform/http/platform-deps.ts';
import { type ApiContext, created, noContent, ok } from '#shared/platform/http/types.ts';
import { logger } from '#shared/platform/observability.ts';
import {
  COMPANY_ACCOUNT_ID,
  COMPANY_FLEET_ID,
  companyKeyRecord,
  fakePlatformDeps,
  GRANTED_FLEET_ID,
  httpEvent,
  LIVE_KEY,
  lambdaContext,
  NOW_MS,
  NOW_RESET_SECONDS,
  NOW_WINDOW_RESET_AT_S,
  NOW_WINDOW_START_S,
  OTHER_LIVE_KEY,
  PARTNER_ID,
  partnerKeyRecord,
  STARTER_PLAN,
  TEST_KEY,
  VEHICLE_ID,
} from '#test/unit/fixtures.ts';

const REQUEST_ID = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;

/** RateLimit headers for the fixtures' clock (10.123 s into the minute) and hits = 1 of 120. */
const FIRST_HIT_HEADERS = {
  'RateLimit-Limit': '120',
  'RateLimit-Remaining': '119',
  'RateLimit-Reset': String(NOW_RESET_SECONDS),
  'RateLimit-Policy': '"per-key";q=120;w=60',
  RateLimit: `"per-key";r=119;t=${NOW_RESET_SECONDS}`,
  'X-RateLimit-Reset': String(NOW_WINDOW_RESET_AT_S),
};

const companyKeys = { [LIVE_KEY]: companyKeyRecord() };

function bearer(key: string, extra: Record<string, string> = {}) {
  return { authorization: `Bearer ${key}`, ...extra };
}

function getVehicleEvent(headers: Record<string, string>, id = VEHICLE_ID): APIGatewayProxyEventV2 {
  return httpEvent({ method: 'GET', path: `/v1/vehicles/${id}`, headers, pathParameters: { id } });
}

async function invoke(handler: ReturnType<typeof createHttpHandler>, event: APIGatewayProxyEventV2) {
  const response = await handler(event, lambdaContext());
  const headers = (response.headers ?? {}) as Record<string, string>;
  const body = typeof response.body === 'string' ? response.body : '';
  return { status: response.statusCode, headers, text: body, json: body ? JSON.parse(body) : undefined };
}

beforeEach(() => {
  // The chain logs unexpected errors; keep test output readable.
  vi.spyOn(logger, 'error').mockImplementation(() => {});
  vi.spyOn(logger, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('createHttpHandler: a successful request', () => {
  it('answers with the implementation’s body as canonical JSON, in the order it was written', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    const impl = vi.fn(async () => ok({ id: VEHICLE_ID, tank_size_gallons: 150.5, name: null, refs: ['a'] }));
    const handler = createHttpHandler(routes.getVehicle, impl, () => deps);

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(200);
    expect(response.text).toBe(`{"id":"${VEHICLE_ID}","tank_size_gallons":150.5,"name":null,"refs":["a"]}`);
    expect(response.headers['Content-Type']).toBe('application/json');
  });

  it('carries a fresh req_ Request-Id and the RateLimit headers of the key’s window', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    const first = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));
    const second = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(first.headers['Request-Id']).toMatch(REQUEST_ID);
    expect(second.headers['Request-Id']).not.toBe(first.headers['Request-Id']);
    expect(first.headers).toMatchObject(FIRST_HIT_HEADERS);
    expect(deps.counters.hitRateWindow).toHaveBeenCalledWith(companyKeyRecord().keyId, NOW_WINDOW_START_S);
  });

  it('hands the implementation typed input, the principal, the acting fleet and the clock', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    const impl = vi.fn(async (_input: unknown, _context: ApiContext) => ok({}));
    const handler = createHttpHandler(routes.listVehicles, impl, () => deps);

    // Act
    await invoke(
      handler,
      httpEvent({
        path: '/v1/vehicles',
        headers: bearer(LIVE_KEY),
        queryStringParameters: { limit: '5', status: 'active' },
      }),
    );

    // Assess
    expect(impl).toHaveBeenCalledTimes(1);
    const [input, context] = impl.mock.calls[0] as [
      { query: unknown; headers: Record<string, string> },
      ApiContext,
    ];
    expect(input.query).toEqual({ limit: 5, status: 'active' });
    expect(input.headers.authorization).toBe(`Bearer ${LIVE_KEY}`);
    expect(context.fleetId).toBe(COMPANY_FLEET_ID);
    expect(context.principal?.keyId).toBe(companyKeyRecord().keyId);
    expect(context.stage).toBe('prod');
    expect(context.baseUrl).toBe('https://api.example.test');
    expect(context.requestId).toMatch(REQUEST_ID);
    expect(context.clock.now()).toBe(NOW_MS);
  });

  it('tells the implementation the stage of the deployment, not of the environment', async () => {
    // Prepare
    const deps = fakePlatformDeps({
      stage: 'sandbox',
      keys: { [TEST_KEY]: companyKeyRecord({ mode: 'test' }) },
    });
    const impl = vi.fn(async (_input: unknown, _context: ApiContext) => ok({}));
    const handler = createHttpHandler(routes.getVehicle, impl, () => deps);

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(TEST_KEY)));

    // Assess
    expect(response.status).toBe(200);
    expect(impl.mock.calls[0]?.[1].stage).toBe('sandbox');
  });

  it('parses and normalizes a JSON body before the implementation sees it', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    const impl = vi.fn(async (_input: { body: unknown }) => created({ ok: true }));
    const handler = createHttpHandler(routes.createVehicle, impl, () => deps);

    // Act
    const response = await invoke(
      handler,
      httpEvent({
        method: 'POST',
        path: '/v1/vehicles',
        headers: bearer(LIVE_KEY, { 'content-type': 'application/json' }),
        body: JSON.stringify({ external_ref: '  TRUCK-1 ', vin: '1xkydp9x4nj123456' }),
      }),
    );

    // Assess
    expect(response.status).toBe(201);
    expect(impl.mock.calls[0]?.[0].body).toEqual({ external_ref: 'TRUCK-1', vin: '1XKYDP9X4NJ123456' });
  });

  it('lets a partner act on a granted fleet named by the lower-cased svc-fleet header', async () => {
    // Prepare
    const deps = fakePlatformDeps({
      keys: { [LIVE_KEY]: partnerKeyRecord() },
      grants: [`${PARTNER_ID}/${GRANTED_FLEET_ID}`],
    });
    const impl = vi.fn(async (_input: unknown, _context: ApiContext) => ok({}));
    const handler = createHttpHandler(routes.getVehicle, impl, () => deps);

    // Act
    const response = await invoke(
      handler,
      getVehicleEvent(bearer(LIVE_KEY, { 'svc-fleet': GRANTED_FLEET_ID })),
    );

    // Assess
    expect(response.status).toBe(200);
    expect(impl.mock.calls[0]?.[1].fleetId).toBe(GRANTED_FLEET_ID);
  });

  it('answers a 204 with an empty body and no JSON content type', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: { [LIVE_KEY]: partnerKeyRecord() } });
    const handler = createHttpHandler(
      routes.deleteFleet,
      async () => noContent(),
      () => deps,
    );

    // Act
    const response = await invoke(
      handler,
      httpEvent({
        method: 'DELETE',
        path: `/v1/fleets/${GRANTED_FLEET_ID}`,
        headers: bearer(LIVE_KEY),
        pathParameters: { id: GRANTED_FLEET_ID },
      }),
    );

    // Assess
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.headers['Content-Type']).toBeUndefined();
    expect(response.headers['Request-Id']).toMatch(REQUEST_ID);
  });
});

describe('createHttpHandler: errors become problem+json', () => {
  it('renders an ApiError from the implementation with its registry title, status and request id', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => {
        throw new ApiError('vehicle_inactive', `Vehicle ${VEHICLE_ID} is deactivated.`);
      },
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(409);
    expect(response.headers['Content-Type']).toBe('application/problem+json');
    expect(response.json).toEqual({
      type: 'https://api.example.test/v1/errors#vehicle_inactive',
      title: 'Vehicle is deactivated',
      status: 409,
      code: 'vehicle_inactive',
      detail: `Vehicle ${VEHICLE_ID} is deactivated.`,
      hint: 'reactivate first',
      request_id: response.headers['Request-Id'],
    });
    expect(response.json.request_id).toMatch(REQUEST_ID);
    expect(response.headers).toMatchObject(FIRST_HIT_HEADERS);
  });

  it('points the problem type at the registry of the base URL the request came in on', async () => {
    // Prepare: the local stack serves plain HTTP on a port.
    const deps = fakePlatformDeps({ keys: companyKeys });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );
    const event = getVehicleEvent({ 'x-forwarded-proto': 'http', host: '127.0.0.1:3000' });
    event.requestContext.domainName = '127.0.0.1:3000';

    // Act
    const response = await invoke(handler, event);

    // Assess
    expect(response.json.type).toBe('http://127.0.0.1:3000/v1/errors#missing_api_key');
  });

  it('turns a plain Error into 500 internal_error without the message or a stack trace', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => {
        throw new Error('connect ECONNREFUSED 10.0.0.12:8000 table fleet-prod-secret');
      },
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(500);
    expect(response.headers['Content-Type']).toBe('application/problem+json');
    expect(response.json.code).toBe('internal_error');
    expect(response.json.request_id).toBe(response.headers['Request-Id']);
    expect(response.text).not.toMatch(/ECONNREFUSED|fleet-prod-secret|10\.0\.0\.12/);
    expect(response.text).not.toMatch(/\bat\s|\.ts:\d+|handler\.test/);
    expect(response.json).not.toHaveProperty('stack');
  });

  it('turns a response body that cannot be canonical JSON (NaN) into 500 internal_error', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({ mpg: Number.NaN }),
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(500);
    expect(response.json.code).toBe('internal_error');
  });

  it('refuses a malformed path id with 400 invalid_public_id before the implementation runs', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    const impl = vi.fn(async () => ok({}));
    const handler = createHttpHandler(routes.getVehicle, impl, () => deps);

    // Act
    const response = await invoke(
      handler,
      getVehicleEvent(bearer(LIVE_KEY), 'flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2'),
    );

    // Assess
    expect(response.status).toBe(400);
    expect(response.json.code).toBe('invalid_public_id');
    expect(impl).not.toHaveBeenCalled();
  });

  it('refuses an invalid body with 422 and every field, before the implementation runs', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    const impl = vi.fn(async () => created({}));
    const handler = createHttpHandler(routes.createVehicle, impl, () => deps);

    // Act
    const response = await invoke(
      handler,
      httpEvent({
        method: 'POST',
        path: '/v1/vehicles',
        headers: bearer(LIVE_KEY, { 'content-type': 'application/json' }),
        body: JSON.stringify({ tank_size_gallons: -5, wheels: 18 }),
      }),
    );

    // Assess
    expect(response.status).toBe(422);
    expect(response.json.title).toBe('Request failed validation');
    expect(response.json.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'external_ref',
      'tank_size_gallons',
      'wheels',
    ]);
    expect(impl).not.toHaveBeenCalled();
  });

  it('refuses a POST without Content-Type with 415', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    const impl = vi.fn(async () => created({}));
    const handler = createHttpHandler(routes.createVehicle, impl, () => deps);

    // Act
    const response = await invoke(
      handler,
      httpEvent({
        method: 'POST',
        path: '/v1/vehicles',
        headers: bearer(LIVE_KEY),
        body: '{"external_ref":"TRUCK-1"}',
      }),
    );

    // Assess
    expect(response.status).toBe(415);
    expect(response.json.code).toBe('unsupported_media_type');
    expect(impl).not.toHaveBeenCalled();
  });
});

describe('createHttpHandler: routing failures become their problems', () => {
  it.each([
    [
      'RoutingUnreachableError',
      new RoutingUnreachableError('destination', { latitude: 21.3, longitude: -157.9 }, 2400, 200, {
        detail: 'The destination is 2400 miles from the nearest road.',
      }),
      {
        status: 502,
        code: 'routing_unreachable',
        title: 'No drivable route between the points',
        detail: 'The destination is 2400 miles from the nearest road.',
        hint: 'verify both points are reachable by road',
      },
    ],
    [
      'RouteTimeoutError',
      new RouteTimeoutError(2000, 2013),
      {
        status: 504,
        code: 'route_computation_timeout',
        title: 'Route computation exceeded the time limit',
        detail: 'The route took longer than 2000 ms to compute.',
        hint: 'retry; simplify constraints',
      },
    ],
    [
      'RouteCapacityError',
      new RouteCapacityError('Amazon Location Service is throttling route requests.'),
      {
        status: 503,
        code: 'route_capacity',
        title: 'Routing engine at capacity',
        detail: 'Amazon Location Service is throttling route requests.',
        hint: 'transient; retry with backoff',
      },
    ],
  ] as const)('answers a %s with its problem, logged as a failed request', async (_name, thrown, problem) => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => {
        throw thrown;
      },
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(problem.status);
    expect(response.headers['Content-Type']).toBe('application/problem+json');
    expect(response.json).toEqual({
      type: `https://api.example.test/v1/errors#${problem.code}`,
      ...problem,
      request_id: response.headers['Request-Id'],
    });
    expect(logger.warn).toHaveBeenCalledWith('Request failed', {
      code: problem.code,
      detail: problem.detail,
    });
    expect(logger.error).not.toHaveBeenCalled();
  });
});

describe('createHttpHandler: the rate limit', () => {
  it('answers over the limit with 429 rate_limited, retry_after and Retry-After, without running the route', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    deps.counters.hitRateWindow.mockResolvedValue(STARTER_PLAN.rateLimitPerMin + 1);
    const impl = vi.fn(async () => ok({}));
    const handler = createHttpHandler(routes.getVehicle, impl, () => deps);

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(429);
    expect(response.json.code).toBe('rate_limited');
    expect(response.json.retry_after).toBe(NOW_RESET_SECONDS);
    expect(response.headers['Retry-After']).toBe(String(NOW_RESET_SECONDS));
    expect(response.headers['RateLimit-Remaining']).toBe('0');
    expect(response.headers['X-RateLimit-Reset']).toBe(String(NOW_WINDOW_RESET_AT_S));
    expect(impl).not.toHaveBeenCalled();
    expect(deps.counters.addUsage).not.toHaveBeenCalled();
  });

  it('allows the request that uses the last unit of the limit', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    deps.counters.hitRateWindow.mockResolvedValue(STARTER_PLAN.rateLimitPerMin);
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers['RateLimit-Remaining']).toBe('0');
  });

  it('fails open without RateLimit headers when the counter store is down', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    deps.counters.hitRateWindow.mockRejectedValue(new Error('throttled'));
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers['RateLimit-Limit']).toBeUndefined();
  });

  it('answers 503 auth_unavailable when the key’s plan cannot be loaded', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: { [LIVE_KEY]: companyKeyRecord({ planName: 'vanished' }) } });
    const impl = vi.fn(async () => ok({}));
    const handler = createHttpHandler(routes.getVehicle, impl, () => deps);

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(503);
    expect(response.json.code).toBe('auth_unavailable');
    expect(impl).not.toHaveBeenCalled();
  });
});

describe('createHttpHandler: order of checks', () => {
  it('authenticates first: an unknown key lacking the scope too is 401 invalid_api_key', async () => {
    // Prepare: the unknown key would also lack vehicles:manage; no record exists for it at all.
    const deps = fakePlatformDeps({ keys: { [LIVE_KEY]: companyKeyRecord({ scopes: ['guidance:read'] }) } });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(OTHER_LIVE_KEY)));

    // Assess
    expect(response.status).toBe(401);
    expect(response.json.code).toBe('invalid_api_key');
    expect(deps.counters.hitRateWindow).not.toHaveBeenCalled();
  });

  it('limits before the scope: a rate-limited key lacking the scope is 429', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: { [LIVE_KEY]: companyKeyRecord({ scopes: ['guidance:read'] }) } });
    deps.counters.hitRateWindow.mockResolvedValue(STARTER_PLAN.rateLimitPerMin + 1);
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(429);
    expect(response.json.code).toBe('rate_limited');
  });

  it('authorizes before validating: a key lacking the scope with a bad body is 403, not 415 or 422', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: { [LIVE_KEY]: companyKeyRecord({ scopes: ['guidance:read'] }) } });
    const handler = createHttpHandler(
      routes.createVehicle,
      async () => created({}),
      () => deps,
    );

    // Act
    const response = await invoke(
      handler,
      httpEvent({ method: 'POST', path: '/v1/vehicles', headers: bearer(LIVE_KEY), body: 'not json' }),
    );

    // Assess
    expect(response.status).toBe(403);
    expect(response.json.code).toBe('insufficient_scope');
  });

  it('sends no RateLimit headers on a 401', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: { [LIVE_KEY]: companyKeyRecord({ status: 'revoked' }) } });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    const missing = await invoke(handler, getVehicleEvent({}));
    const revoked = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect([missing.status, missing.json.code]).toEqual([401, 'missing_api_key']);
    expect([revoked.status, revoked.json.code]).toEqual([401, 'key_revoked']);
    for (const response of [missing, revoked]) {
      expect(Object.keys(response.headers).filter((name) => /ratelimit/i.test(name))).toEqual([]);
      expect(response.headers['Request-Id']).toMatch(REQUEST_ID);
    }
  });

  it('sends the RateLimit headers on a 403 insufficient_scope, with required_scope in the body', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: { [LIVE_KEY]: companyKeyRecord({ scopes: ['guidance:read'] }) } });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(403);
    expect(response.json.code).toBe('insufficient_scope');
    expect(response.json.required_scope).toBe('vehicles:manage');
    expect(response.json.detail).toContain('vehicles:manage');
    expect(response.headers).toMatchObject(FIRST_HIT_HEADERS);
  });

  it('refuses a svc_test_ key on the production stage with 403 before looking it up', async () => {
    // Prepare
    const deps = fakePlatformDeps({
      stage: 'prod',
      keys: { [TEST_KEY]: companyKeyRecord({ mode: 'test' }) },
    });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(TEST_KEY)));

    // Assess
    expect([response.status, response.json.code]).toEqual([403, 'sandbox_key_on_production']);
    expect(deps.findKey).not.toHaveBeenCalled();
  });

  it('asks a partner key on a fleet route for the SVC-Fleet header', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: { [LIVE_KEY]: partnerKeyRecord() } });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect([response.status, response.json.code]).toEqual([400, 'fleet_header_required']);
  });
});

describe('createHttpHandler: auth backend down (503 auth_unavailable)', () => {
  it('answers 503 when the key store throws', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    deps.findKey.mockRejectedValue(new Error('ProvisionedThroughputExceededException'));
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect([response.status, response.json.code]).toEqual([503, 'auth_unavailable']);
  });

  it('answers 503, not 500, when the plan store throws', async () => {
    // Prepare: the key was found; reading its plan from the same table then fails.
    const deps = fakePlatformDeps({ keys: companyKeys });
    deps.plan.mockRejectedValue(new Error('ProvisionedThroughputExceededException'));
    const impl = vi.fn(async () => ok({}));
    const handler = createHttpHandler(routes.getVehicle, impl, () => deps);

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect([response.status, response.json.code]).toEqual([503, 'auth_unavailable']);
    expect(impl).not.toHaveBeenCalled();
  });

  it('answers 503, not 500, when the partner-grant store throws', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: { [LIVE_KEY]: partnerKeyRecord() } });
    deps.hasGrant.mockRejectedValue(new Error('ProvisionedThroughputExceededException'));
    const impl = vi.fn(async () => ok({}));
    const handler = createHttpHandler(routes.getVehicle, impl, () => deps);

    // Act
    const response = await invoke(
      handler,
      getVehicleEvent(bearer(LIVE_KEY, { 'svc-fleet': GRANTED_FLEET_ID })),
    );

    // Assess
    expect([response.status, response.json.code]).toEqual([503, 'auth_unavailable']);
    expect(impl).not.toHaveBeenCalled();
  });
});

describe('createHttpHandler: usage metering', () => {
  it('counts a request that reaches the implementation against the account and the route’s family', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(deps.counters.addUsageWithin).toHaveBeenCalledTimes(1);
    expect(deps.counters.addUsageWithin).toHaveBeenCalledWith(
      COMPANY_ACCOUNT_ID,
      '2026-11',
      'vehicles',
      1,
      1000,
    );
  });

  it('counts a partner’s call against the partner, not the fleet it acts on', async () => {
    // Prepare
    const deps = fakePlatformDeps({
      keys: { [LIVE_KEY]: partnerKeyRecord() },
      grants: [`${PARTNER_ID}/${GRANTED_FLEET_ID}`],
    });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    await invoke(handler, getVehicleEvent(bearer(LIVE_KEY, { 'svc-fleet': GRANTED_FLEET_ID })));

    // Assess
    expect(deps.counters.addUsageWithin).toHaveBeenCalledWith(PARTNER_ID, '2026-11', 'vehicles', 1, 1000);
  });

  it.each([
    ['an authentication failure', { authorization: 'Bearer nope' }, VEHICLE_ID],
    ['a scope failure', 'readonly', VEHICLE_ID],
    ['a validation failure', bearer(LIVE_KEY), 'not-an-id'],
  ] as const)('does not count %s', async (_why, headers, id) => {
    // Prepare
    const deps = fakePlatformDeps({
      keys: {
        [LIVE_KEY]: companyKeyRecord(),
        [OTHER_LIVE_KEY]: companyKeyRecord({ scopes: ['guidance:read'] }),
      },
    });
    const impl = vi.fn(async () => ok({}));
    const handler = createHttpHandler(routes.getVehicle, impl, () => deps);

    // Act
    const response = await invoke(
      handler,
      getVehicleEvent(headers === 'readonly' ? bearer(OTHER_LIVE_KEY) : headers, id),
    );

    // Assess
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(impl).not.toHaveBeenCalled();
    expect(deps.counters.addUsage).not.toHaveBeenCalled();
    expect(deps.counters.addUsageWithin).not.toHaveBeenCalled();
  });

  it('does not count a route exempt from quotas (GET /v1/me)', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    const handler = createHttpHandler(
      routes.getMe,
      async () => ok({}),
      () => deps,
    );

    // Act
    const response = await invoke(handler, httpEvent({ path: '/v1/me', headers: bearer(LIVE_KEY) }));

    // Assess
    expect(response.status).toBe(200);
    expect(deps.counters.addUsage).not.toHaveBeenCalled();
    expect(deps.counters.addUsageWithin).not.toHaveBeenCalled();
  });

  it('still answers when the usage counter fails', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    deps.counters.addUsageWithin.mockRejectedValue(new Error('throttled'));
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({ id: VEHICLE_ID }),
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(200);
  });
});

describe('createHttpHandler: monthly quota', () => {
  const quotaOf = (vehicles: number) => ({ ...STARTER_PLAN, monthlyQuota: { vehicles } });

  it('admits a call within the family’s quota through one bounded add of 1', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    deps.plan.mockResolvedValue(quotaOf(20));
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(200);
    expect(deps.counters.addUsageWithin).toHaveBeenCalledWith(
      COMPANY_ACCOUNT_ID,
      '2026-11',
      'vehicles',
      1,
      20,
    );
    expect(deps.counters.addUsage).not.toHaveBeenCalled();
  });

  it('429 quota_exceeded with limit, used and the reset instant, no Retry-After, never reaching the handler', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    deps.plan.mockResolvedValue(quotaOf(20));
    deps.counters.addUsageWithin.mockResolvedValue({ admitted: false, used: 20 });
    const impl = vi.fn(async () => ok({}));
    const handler = createHttpHandler(routes.getVehicle, impl, () => deps);

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(429);
    const problem = response.json;
    expect(problem).toMatchObject({ code: 'quota_exceeded', limit: 20, used: 20 });
    expect(problem.hint).toContain('2026-12-01T00:00:00.000000Z');
    expect(response.headers?.['Retry-After']).toBeUndefined();
    expect(impl).not.toHaveBeenCalled();
  });

  it('checks the quota after the rate limit: a rate-limited call uses no quota', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    deps.plan.mockResolvedValue(quotaOf(20));
    deps.counters.hitRateWindow.mockResolvedValue(STARTER_PLAN.rateLimitPerMin + 1);
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.json.code).toBe('rate_limited');
    expect(deps.counters.addUsageWithin).not.toHaveBeenCalled();
  });

  it('checks the quota after scope and fleet: a foreign fleet is refused without using quota', async () => {
    // Prepare: a partner key acting on a fleet it holds no grant for.
    const deps = fakePlatformDeps({ keys: { [LIVE_KEY]: partnerKeyRecord() } });
    deps.plan.mockResolvedValue(quotaOf(20));
    deps.counters.addUsageWithin.mockResolvedValue({ admitted: false, used: 20 });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    const response = await invoke(
      handler,
      getVehicleEvent(bearer(LIVE_KEY, { 'svc-fleet': GRANTED_FLEET_ID })),
    );

    // Assess: the fleet refusal wins over the spent quota, which was never consulted.
    expect(response.status).not.toBe(429);
    expect(deps.counters.addUsageWithin).not.toHaveBeenCalled();
  });

  it('counts, without a bound, a family the plan sets no quota for (unlimited)', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    deps.plan.mockResolvedValue({ ...STARTER_PLAN, monthlyQuota: { stations: 5 } });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok({}),
      () => deps,
    );

    // Act
    const response = await invoke(handler, getVehicleEvent(bearer(LIVE_KEY)));

    // Assess
    expect(response.status).toBe(200);
    expect(deps.counters.addUsage).toHaveBeenCalledWith(COMPANY_ACCOUNT_ID, '2026-11', 'vehicles');
    expect(deps.counters.addUsageWithin).not.toHaveBeenCalled();
  });
});

describe('createHttpHandler: anonymous routes', () => {
  it('never looks up a key, counts nothing and builds no platform dependencies', async () => {
    // Prepare
    const deps = fakePlatformDeps({ keys: companyKeys });
    const depsFactory = vi.fn<() => PlatformDeps>(() => deps);
    const impl = vi.fn(async (_input: unknown, _context: ApiContext) => ok({ data: [] }));
    const handler = createHttpHandler(routes.listErrors, impl, depsFactory);

    // Act: even a garbage Authorization header does not matter here.
    const response = await invoke(
      handler,
      httpEvent({ path: '/v1/errors', headers: { authorization: 'Basic x' } }),
    );

    // Assess
    expect(response.status).toBe(200);
    expect(response.text).toBe('{"data":[]}');
    expect(depsFactory).not.toHaveBeenCalled();
    expect(deps.findKey).not.toHaveBeenCalled();
    expect(deps.counters.hitRateWindow).not.toHaveBeenCalled();
    expect(impl.mock.calls[0]?.[1].principal).toBeNull();
    expect(Object.keys(response.headers).filter((name) => /ratelimit/i.test(name))).toEqual([]);
  });
});

describe('createFallbackHandler', () => {
  it('renders what the responder throws as problem+json with a request id', async () => {
    // Prepare
    const handler = createFallbackHandler(async () => {
      throw new ApiError('resource_not_found', 'There is no route GET /v1/nope.');
    });

    // Act
    const response = await handler(httpEvent({ path: '/v1/nope' }), lambdaContext());
    const body = JSON.parse(String(response.body));

    // Assess
    expect(response.statusCode).toBe(404);
    expect(body.code).toBe('resource_not_found');
    expect(body.request_id).toBe((response.headers as Record<string, string>)['Request-Id']);
  });
});
