import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signPayload } from '#shared/webhooks/domain/signature.ts';
import {
  createFleetFuelClient,
  ext,
  FleetFuelApiError,
  paginate,
  verifyWebhookSignature,
} from '../../../clients/typescript/src/index.ts';
import { retryAfterMs, retryDelayMs } from '../../../clients/typescript/src/retry.ts';
import { verifyWebhookSignature as receiverVerifier } from '../../../webhooks-receiver/index.ts';

/**
 * A fake API on loopback: each test queues the answers; the server records what it was sent.
 * The client talks real HTTP to it through the global fetch.
 */
interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
let answers: Answer[] = [];
let received: Received[] = [];
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
    const answer = answers.shift() ?? { status: 500, body: { code: 'no_answer_queued' } };
    const problem = answer.status >= 400;
    response.writeHead(answer.status, {
      'Content-Type': problem ? 'application/problem+json' : 'application/json',
      ...answer.headers,
    });
    response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
});
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let slept: number[] = [];
beforeEach(() => {
  answers = [];
  received = [];
  slept = [];
});

/** A client whose waits are recorded instead of slept, with jitter pinned to the middle. */
function client(options: { fleetId?: string; maxAttempts?: number } = {}) {
  return createFleetFuelClient({
    baseUrl,
    apiKey: 'sk_test_abc',
    ...(options.fleetId ? { fleetId: options.fleetId } : {}),
    retry: { maxAttempts: options.maxAttempts ?? 4, baseDelayMs: 100, maxDelayMs: 1000 },
    sleep: async (ms) => {
      slept.push(ms);
    },
    random: () => 0.5,
  });
}

const problem = (status: number, code: string, extra: Record<string, unknown> = {}) => ({
  status,
  body: {
    type: `https://docs.example/errors#${code}`,
    title: code,
    status,
    code,
    detail: `detail of ${code}`,
    hint: `hint of ${code}`,
    request_id: 'req_01JD7ZK3M4N5P6Q7R8S9T0V1W2',
    ...extra,
  },
});

const fueling = {
  vehicle_id: 'ext:TRUCK-042',
  gallons: 120,
  price_usd_per_gallon: 3.49,
  fueled_at: '2026-11-21T22:25:48.000000Z',
};

describe('the client’s requests', () => {
  it('authenticates, names the partner’s fleet and URL-encodes ext: refs in paths', async () => {
    answers = [{ status: 200, body: { id: 'veh_x' } }];
    const { data } = await client({ fleetId: 'flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2' }).GET('/v1/vehicles/{id}', {
      params: { path: { id: ext('TRUCK 42/A') } },
    });
    expect(data).toEqual({ id: 'veh_x' });
    expect(received[0]?.url).toBe('/v1/vehicles/ext%3ATRUCK%2042%2FA');
    expect(received[0]?.headers.authorization).toBe('Bearer sk_test_abc');
    expect(received[0]?.headers['svc-fleet']).toBe('flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2');
    expect(ext('TRUCK-042')).toBe('ext:TRUCK-042');
    expect(() => ext(' ')).toThrow(TypeError);
  });
});

describe('idempotency keys', () => {
  it('adds one to the idempotent POSTs and sends the same key and body on every retry', async () => {
    answers = [
      problem(503, 'auth_unavailable'),
      problem(504, 'route_computation_timeout'),
      { status: 201, body: { id: 'fuel_1' } },
    ];
    const { data } = await client().POST('/v1/fuelings', { body: fueling as never });
    expect(data).toEqual({ id: 'fuel_1' });
    expect(received).toHaveLength(3);
    const keys = received.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
    expect(JSON.parse(received[0]?.body ?? '')).toEqual(fueling);
  });

  it('keeps a key the caller chose, mints a new one per call, and sends none where the API takes none', async () => {
    answers = [
      { status: 201, body: {} },
      { status: 201, body: {} },
      { status: 201, body: {} },
      { status: 201, body: {} },
    ];
    const api = client();
    await api.POST('/v1/fuelings', {
      body: fueling as never,
      params: { header: { 'Idempotency-Key': 'order-7781' } },
    });
    await api.POST('/v1/fuelings', { body: fueling as never });
    await api.POST('/v1/fuelings', { body: fueling as never });
    await api.POST('/v1/vehicles', { body: { external_ref: 'TRUCK-042' } as never });
    const keys = received.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toBe('order-7781');
    expect(keys[1]).not.toBe(keys[2]);
    expect(keys[3]).toBeUndefined();
  });
});

describe('retries', () => {
  it('retries rate_limited after Retry-After, and 503/504 with growing jittered backoff', async () => {
    answers = [
      { ...problem(429, 'rate_limited', { retry_after: 7 }), headers: { 'Retry-After': '7' } },
      problem(503, 'route_capacity'),
      problem(504, 'route_computation_timeout'),
      { status: 200, body: { data: [], next_cursor: null } },
    ];
    const { data } = await client().GET('/v1/vehicles');
    expect(data).toEqual({ data: [], next_cursor: null });
    // Retry-After 7 s outweighs the 100 ms step; then half of 200 ms and of 400 ms (random 0.5).
    expect(slept).toEqual([7000, 100, 200]);
  });

  it('never resends a POST without an Idempotency-Key after a 503 or 504 that may come after the API acted', async () => {
    answers = [problem(504, 'route_computation_timeout'), { status: 201, body: {} }];
    const error = await client()
      .POST('/v1/webhooks', { body: { url: 'https://hooks.example/x', event_types: ['*'] } as never })
      .catch((caught: unknown) => caught);
    expect((error as FleetFuelApiError).status).toBe(504);
    expect(received).toHaveLength(1);
    expect(received[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it('resends such a POST after a 503 raised before acting, and after API Gateway’s code-less 429', async () => {
    answers = [
      problem(503, 'auth_unavailable'),
      { status: 429, body: { message: 'Too Many Requests' } },
      { status: 201, body: { id: 'whk_1' } },
    ];
    const { data } = await client().POST('/v1/webhooks', {
      body: { url: 'https://hooks.example/x', event_types: ['*'] } as never,
    });
    expect(data).toEqual({ id: 'whk_1' });
    expect(received).toHaveLength(3);
  });

  it('gives up after maxAttempts with the last problem as the error', async () => {
    answers = [problem(503, 'route_capacity'), problem(503, 'route_capacity')];
    const error = await client({ maxAttempts: 2 })
      .GET('/v1/vehicles')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FleetFuelApiError);
    expect((error as FleetFuelApiError).code).toBe('route_capacity');
    expect(received).toHaveLength(2);
  });

  it.each([
    ['quota_exceeded', 429],
    ['station_budget_exceeded', 429],
    ['validation_failed', 422],
    ['insufficient_scope', 403],
    ['resource_not_found', 404],
  ])('never retries %s', async (code, status) => {
    answers = [problem(status, code), { status: 200, body: {} }];
    const error = await client()
      .GET('/v1/stations', { params: { query: { latitude: 1, longitude: 2 } as never } })
      .catch((caught: unknown) => caught);
    expect((error as FleetFuelApiError).code).toBe(code);
    expect(received).toHaveLength(1);
    expect(slept).toEqual([]);
  });

  it('reads Retry-After as seconds or an HTTP date, and caps the jittered step', () => {
    expect(retryAfterMs('3', 0)).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
    expect(retryAfterMs(null, 0)).toBeUndefined();
    const options = { maxAttempts: 9, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(retryDelayMs(1, options, () => 1)).toBe(100);
    expect(retryDelayMs(8, options, () => 1)).toBe(1000);
    expect(retryDelayMs(8, options, () => 0)).toBe(0);
  });
});

describe('errors', () => {
  it('maps a problem to FleetFuelApiError with every member a caller branches on', async () => {
    answers = [
      problem(422, 'validation_failed', {
        errors: [{ field: 'destination.latitude', message: 'must be a number from -90 to 90' }],
      }),
    ];
    const error = (await client()
      .POST('/v1/vehicles', { body: {} as never })
      .catch((caught: unknown) => caught)) as FleetFuelApiError;
    expect(error).toBeInstanceOf(FleetFuelApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_failed',
      detail: 'detail of validation_failed',
      hint: 'hint of validation_failed',
      request_id: 'req_01JD7ZK3M4N5P6Q7R8S9T0V1W2',
      errors: [{ field: 'destination.latitude', message: 'must be a number from -90 to 90' }],
    });
    expect(error.message).toBe('validation_failed: detail of validation_failed');
  });

  it('still gives a typed error for a body that is not a problem', async () => {
    answers = [{ status: 502, body: 'Bad gateway' }];
    const error = (await client()
      .GET('/v1/vehicles')
      .catch((caught: unknown) => caught)) as FleetFuelApiError;
    expect(error).toMatchObject({ status: 502, code: 'http_502' });
  });
});

describe('paginate', () => {
  it('walks every page, passing each next_cursor back', async () => {
    answers = [
      { status: 200, body: { data: [{ id: 1 }, { id: 2 }], next_cursor: 'c2' } },
      { status: 200, body: { data: [{ id: 3 }], next_cursor: 'c3' } },
      { status: 200, body: { data: [], next_cursor: null } },
    ];
    const api = client();
    const ids: unknown[] = [];
    for await (const vehicle of paginate((cursor) =>
      api.GET('/v1/vehicles', { params: { query: { limit: 2, ...(cursor ? { cursor } : {}) } } }),
    )) {
      ids.push((vehicle as { id: unknown }).id);
    }
    expect(ids).toEqual([1, 2, 3]);
    expect(received.map((r) => r.url)).toEqual([
      '/v1/vehicles?limit=2',
      '/v1/vehicles?limit=2&cursor=c2',
      '/v1/vehicles?limit=2&cursor=c3',
    ]);
  });

  it('stops with an error when a server answers the same cursor twice, instead of looping', async () => {
    answers = [
      { status: 200, body: { data: [{ id: 1 }], next_cursor: 'c2' } },
      { status: 200, body: { data: [{ id: 2 }], next_cursor: 'c2' } },
    ];
    const api = client();
    const walk = async () => {
      for await (const _ of paginate((cursor) =>
        api.GET('/v1/vehicles', { params: { query: { ...(cursor ? { cursor } : {}) } } }),
      )) {
        // reading every item
      }
    };
    await expect(walk()).rejects.toThrow(/came back twice/);
    expect(received).toHaveLength(2);
  });
});

describe('webhook verification', () => {
  it('is the receiver module’s verifier, re-exported', () => {
    expect(verifyWebhookSignature).toBe(receiverVerifier);
    const body = '{"id":"evt_1"}';
    const header = signPayload(['whsec_abc'], body, 1_767_225_600);
    expect(
      verifyWebhookSignature({ rawBody: body, header, secrets: 'whsec_abc', nowSeconds: 1_767_225_660 }),
    ).toEqual({
      ok: true,
      timestamp: 1_767_225_600,
    });
  });
});
