import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CalculateRoutesCommand, GeoRoutesClient } from '@aws-sdk/client-geo-routes';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { routes } from '#shared/api/route-table.ts';
import { translateAmazonLocationError } from '#shared/geo/amazon-location-errors.ts';
import {
  AMAZON_LOCATION_MAX_ATTEMPTS,
  createAmazonLocationRouter,
  geoRoutesClientConfig,
} from '#shared/geo/amazon-location-router.ts';
import {
  RouteCapacityError,
  RouteTimeoutError,
  RoutingUnreachableError,
} from '#shared/geo/routing-errors.ts';
import { apiErrorForDomainError } from '#shared/platform/domain-errors.ts';
import { createHttpHandler } from '#shared/platform/http/handler.ts';
import { ok } from '#shared/platform/http/types.ts';
import { logger } from '#shared/platform/observability.ts';
import {
  companyKeyRecord,
  fakePlatformDeps,
  httpEvent,
  LIVE_KEY,
  lambdaContext,
  VEHICLE_ID,
} from '../fixtures.ts';
import { place } from './support.ts';

// Recorded HTTP error responses replayed through a real GeoRoutesClient: the SDK's own
// deserializer turns them into its exceptions and its own retry strategy runs, as in Lambda.

interface RecordedError {
  statusCode: number;
  headers: Record<string, string>;
  body: unknown;
}

const fixtures = join(import.meta.dirname, '../../fixtures/amazon-location/errors');
const recordedError = (name: string) =>
  JSON.parse(readFileSync(join(fixtures, `${name}.json`), 'utf8')) as RecordedError;

/** A request handler answering every attempt with the recorded response; counts the attempts. */
function replaying(name: string) {
  const recorded = recordedError(name);
  const handler = {
    attempts: 0,
    async handle() {
      handler.attempts += 1;
      return {
        response: {
          statusCode: recorded.statusCode,
          reason: '',
          headers: recorded.headers,
          body: new TextEncoder().encode(JSON.stringify(recorded.body)),
        },
      };
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs: () => ({}),
  };
  return handler;
}

const credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};

/** A router whose client has the production retry settings and answers from `handler`. */
function routerAnswering(handler: ReturnType<typeof replaying>) {
  const client = new GeoRoutesClient({
    ...geoRoutesClientConfig(2_000),
    region: 'us-east-1',
    credentials,
    requestHandler: handler,
  });
  // The budget is not what these tests are about: wide enough for the SDK's retry backoff on a
  // loaded machine (a throttled retry waits up to 500 ms).
  return createAmazonLocationRouter({ client, timeBudgetMs: 30_000 });
}

const dallas = place('dallas-tx');
const wichita = place('wichita-ks');
const pacific = { latitude: 30, longitude: -140 };
const honolulu = { latitude: 21.3069, longitude: -157.8583 };

describe('recorded error responses, through the SDK', () => {
  it.each([
    ['validation-origin-not-matched', pacific, wichita, 'origin'],
    ['validation-destination-not-matched', dallas, honolulu, 'destination'],
  ] as const)(
    '%s → 502 routing_unreachable at the %s, not retried',
    async (name, origin, destination, endpoint) => {
      // Prepare
      const handler = replaying(name);

      // Act
      const error = await routerAnswering(handler)
        .route({ origin, destination })
        .catch((caught: unknown) => caught);

      // Assess
      expect(error).toBeInstanceOf(RoutingUnreachableError);
      expect(error).toMatchObject({ endpoint, point: endpoint === 'origin' ? origin : destination });
      expect(apiErrorForDomainError(error)).toMatchObject({
        code: 'routing_unreachable',
        status: 502,
        detail: `Amazon Location could not route the truck: ${endpoint === 'origin' ? 'Origin' : 'Destination'} position could not be matched to the road network.`,
      });
      expect(handler.attempts).toBe(1);
    },
  );

  it.each([
    ['throttling', 'Amazon Location Service is throttling route requests.'],
    ['service-quota-exceeded', 'Amazon Location Service is throttling route requests.'],
    [
      'internal-server-error',
      'Amazon Location Service failed to compute the route (a server error on its side).',
    ],
  ])('%s → 503 route_capacity after one retry', async (name, detail) => {
    // Prepare
    const handler = replaying(name);

    // Act
    const error = await routerAnswering(handler)
      .route({ origin: dallas, destination: wichita })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RouteCapacityError);
    expect(apiErrorForDomainError(error)).toMatchObject({ code: 'route_capacity', status: 503, detail });
    expect(handler.attempts).toBe(name === 'service-quota-exceeded' ? 1 : AMAZON_LOCATION_MAX_ATTEMPTS);
  });

  it.each(['access-denied', 'validation-bad-request'])(
    '%s stays an error of ours (a 500, logged), not a routing failure',
    async (name) => {
      // Prepare
      const handler = replaying(name);

      // Act
      const error = await routerAnswering(handler)
        .route({ origin: dallas, destination: wichita })
        .catch((caught: unknown) => caught);

      // Assess
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({
        name: name === 'access-denied' ? 'AccessDeniedException' : 'ValidationException',
      });
      expect(apiErrorForDomainError(error)).toBeNull();
      expect(handler.attempts).toBe(1);
    },
  );

  it('gives up on a call that hangs past the budget with 504 route_computation_timeout and aborts it', async () => {
    // Prepare: a service that accepts the request and never answers.
    let signal: AbortSignal | undefined;
    const hanging = {
      handle: (_request: unknown, options?: { abortSignal?: AbortSignal }) => {
        signal = options?.abortSignal;
        return new Promise<never>(() => {});
      },
      updateHttpClientConfig() {},
      httpHandlerConfigs: () => ({}),
    };
    const client = new GeoRoutesClient({ region: 'us-east-1', credentials, requestHandler: hanging });
    const router = createAmazonLocationRouter({ client, timeBudgetMs: 50 });

    // Act
    const error = await router
      .route({ origin: dallas, destination: wichita })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RouteTimeoutError);
    expect(apiErrorForDomainError(error)).toMatchObject({
      code: 'route_computation_timeout',
      status: 504,
      detail: 'The route took longer than 50 ms to compute.',
    });
    expect(signal?.aborted).toBe(true);
  });

  it.each([
    ['TimeoutError', '@smithy/node-http-handler - the request socket did not establish a connection'],
    ['AbortError', 'Request aborted'],
  ])('maps the SDK’s %s to a timeout', (name, message) => {
    // Act
    const error = translateAmazonLocationError(
      Object.assign(new Error(message), { name }),
      { origin: dallas, destination: wichita },
      2_000,
      612,
    );

    // Assess
    expect(error).toBeInstanceOf(RouteTimeoutError);
    expect(error).toMatchObject({ budgetMs: 2_000, elapsedMs: 612 });
  });

  it.each(['ECONNREFUSED', 'EAI_AGAIN', 'ENOTFOUND'])(
    'maps a connection failure (%s) to route_capacity',
    (code) => {
      // Act
      const error = translateAmazonLocationError(
        Object.assign(new Error(`connect ${code}`), { code }),
        { origin: dallas, destination: wichita },
        2_000,
        40,
      );

      // Assess
      expect(error).toBeInstanceOf(RouteCapacityError);
      expect((error as Error).message).toBe(`Amazon Location Service could not be reached (${code}).`);
    },
  );
});

describe('the client’s own limits', () => {
  let server: Server;
  let requests = 0;

  beforeAll(async () => {
    // Accepts connections and reads requests, never answers.
    server = createServer(() => {
      requests += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sets two attempts, a connection timeout of a quarter of the budget and a request timeout of the budget', () => {
    // Act, Assess
    expect(geoRoutesClientConfig(2_000)).toEqual({
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 500, requestTimeout: 2_000, throwOnRequestTimeout: true },
    });
  });

  it('stops an attempt the server never answers at the request timeout, and retries once', async () => {
    // Prepare: the production settings for a 150 ms budget, against the silent server.
    const { port } = server.address() as AddressInfo;
    const client = new GeoRoutesClient({
      ...geoRoutesClientConfig(150),
      region: 'us-east-1',
      credentials,
      endpoint: `http://127.0.0.1:${port}`,
    });

    // Act
    const error = await client
      .send(
        new CalculateRoutesCommand({
          Origin: [-96.797, 32.7767],
          Destination: [-97.3301, 37.6872],
          TravelMode: 'Truck',
        }),
      )
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toMatchObject({ name: 'TimeoutError' });
    expect(requests).toBe(2);
    client.destroy();
  });
});

describe('the HTTP answer', () => {
  const event = (): APIGatewayProxyEventV2 =>
    httpEvent({
      method: 'GET',
      path: `/v1/vehicles/${VEHICLE_ID}`,
      headers: { authorization: `Bearer ${LIVE_KEY}` },
      pathParameters: { id: VEHICLE_ID },
    });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function answer(name: string) {
    const router = routerAnswering(replaying(name));
    const deps = fakePlatformDeps({ keys: { [LIVE_KEY]: companyKeyRecord() } });
    const handler = createHttpHandler(
      routes.getVehicle,
      async () => ok(await router.route({ origin: dallas, destination: wichita })),
      () => deps,
    );
    const response = await handler(event(), lambdaContext());
    return {
      status: response.statusCode,
      contentType: response.headers?.['Content-Type'],
      json: JSON.parse(String(response.body)),
    };
  }

  it('is 503 route_capacity problem+json when Amazon Location throttles', async () => {
    // Act
    const response = await answer('throttling');

    // Assess
    expect(response.status).toBe(503);
    expect(response.contentType).toBe('application/problem+json');
    expect(response.json).toMatchObject({
      code: 'route_capacity',
      detail: 'Amazon Location Service is throttling route requests.',
      hint: 'transient; retry with backoff',
    });
  });

  it('is a logged 500 internal_error when the role may not call Amazon Location, without its message', async () => {
    // Prepare
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => {});

    // Act
    const response = await answer('access-denied');

    // Assess
    expect(response.status).toBe(500);
    expect(response.json).toMatchObject({ code: 'internal_error' });
    expect(JSON.stringify(response.json)).not.toContain('geo-routes');
    expect(JSON.stringify(errors.mock.calls)).toContain('AccessDeniedException');
  });
});
