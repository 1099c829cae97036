import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createFleetFuelClient,
  ext,
  FleetFuelApiError,
  paginate,
} from '../../clients/typescript/src/index.ts';
import { loadCredentials } from '../support/credentials.ts';

/**
 * The TypeScript client (clients/typescript) in a realistic flow against the stack: everything
 * goes through the generated types, openapi-fetch and the client's retry and idempotency layer.
 */
const credentials = loadCredentials();
const dallas = { latitude: 32.7767, longitude: -96.797 };
const denver = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };

/**
 * A network that loses the first answer to each idempotent POST: the request reaches the API and
 * is carried out, but the client never sees the response, as when a connection drops mid-answer.
 */
function lossyNetwork() {
  const sent: { method: string; path: string; key: string | null }[] = [];
  const lost = new Set<string>();
  const fetch = async (request: Request) => {
    const key = request.headers.get('Idempotency-Key');
    sent.push({ method: request.method, path: new URL(request.url).pathname, key });
    const response = await globalThis.fetch(request);
    if (key && !lost.has(key)) {
      lost.add(key);
      await response.body?.cancel();
      throw new TypeError('fetch failed: connection reset');
    }
    return response;
  };
  return { fetch, sent };
}

describe('the TypeScript client against the stack', () => {
  it('creates a vehicle, reports breadcrumbs, plans a route across a lost answer, starts guidance, lists, and types a 404', async () => {
    const network = lossyNetwork();
    const client = createFleetFuelClient({
      baseUrl: credentials.base_url,
      apiKey: credentials.keys.company_live,
      fetch: network.fetch,
      retry: { baseDelayMs: 10 },
    });
    const ref = `TS-CLIENT ${randomUUID().slice(0, 8)}`;

    const { data: vehicle } = await client.POST('/v1/vehicles', {
      body: { external_ref: ref, tank_size_gallons: 150, estimated_mpg: 6.5 },
    });
    expect(vehicle?.id).toMatch(/^veh_/);
    // By the caller's own reference (with a space: URL-encoded in the path).
    const { data: byRef } = await client.GET('/v1/vehicles/{id}', { params: { path: { id: ext(ref) } } });
    expect(byRef?.id).toBe(vehicle?.id);

    const { data: ingest } = await client.POST('/v1/locations', {
      body: {
        locations: [
          {
            external_ref: ref,
            ...dallas,
            fuel_level_percent: 40,
            recorded_at: new Date(Date.now() - 5000).toISOString(),
          },
        ],
      },
    });
    expect(ingest).toMatchObject({ accepted: 1, rejected: 0 });

    // The first answer is lost; the retry carries the same key, so the API replays the route it
    // already planned rather than planning (and charging for) a second one.
    const { data: route, response } = await client.POST('/v1/routes', {
      body: {
        origin: { ...dallas, name: 'Dallas' },
        destination: denver,
        tank_size_gallons: 150,
        estimated_mpg: 6.5,
        fuel_level_percent: 40,
        min_arrival_fuel_percent: 15,
      },
    });
    expect(route?.id).toMatch(/^rte_/);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    const routeCalls = network.sent.filter((call) => call.path === '/v1/routes');
    expect(routeCalls).toHaveLength(2);
    expect(routeCalls[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(routeCalls[1]?.key).toBe(routeCalls[0]?.key);

    const { data: session } = await client.POST('/v1/vehicles/{id}/guidance', {
      params: { path: { id: ext(ref) } },
      body: { destination: denver },
    });
    expect(session).toMatchObject({ vehicle_id: vehicle?.id, status: 'active' });

    const seen: string[] = [];
    for await (const listed of paginate((cursor) =>
      client.GET('/v1/vehicles', { params: { query: { limit: 2, ...(cursor ? { cursor } : {}) } } }),
    )) {
      seen.push(listed.id);
    }
    expect(seen).toContain(vehicle?.id);
    expect(new Set(seen).size).toBe(seen.length);
    // Two per page: every page was fetched (the last may come back empty), none twice.
    const pages = network.sent.filter((call) => call.path === '/v1/vehicles' && call.method === 'GET').length;
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(seen.length / 2));
    expect(pages).toBeLessThanOrEqual(Math.ceil(seen.length / 2) + 1);

    const missing = await client
      .GET('/v1/vehicles/{id}', { params: { path: { id: 'veh_00000000000000000000000000' } } })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(FleetFuelApiError);
    expect(missing).toMatchObject({ status: 404, code: 'resource_not_found' });
    expect((missing as FleetFuelApiError).request_id).toMatch(/^req_/);
    expect((missing as FleetFuelApiError).hint).toEqual(expect.any(String));
  });
});
