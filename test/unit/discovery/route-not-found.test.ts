import { describe, expect, it } from 'vitest';
import { handler } from '#functions/http/discovery/route-not-found.ts';
import { routeList } from '#shared/api/route-table.ts';
import { allowedMethods } from '#shared/platform/http/allowed-methods.ts';
import { httpEvent, lambdaContext, VEHICLE_ID } from '../fixtures.ts';

async function call(method: string, path: string) {
  const response = await handler(httpEvent({ method, path }), lambdaContext());
  const headers = (response.headers ?? {}) as Record<string, string>;
  const text = String(response.body ?? '');
  return { status: response.statusCode, headers, json: text ? JSON.parse(text) : undefined };
}

describe('allowedMethods', () => {
  it('lists the methods the route table serves on a concrete path, ids and ext: refs included', () => {
    // Act / Assess
    expect(allowedMethods(routeList, `/v1/vehicles/${VEHICLE_ID}`)).toEqual(['GET', 'PATCH']);
    expect(allowedMethods(routeList, '/v1/vehicles/ext%3ATRUCK-042/location')).toEqual(['GET']);
    expect(allowedMethods(routeList, '/v1/vehicles')).toEqual(['GET', 'POST']);
    expect(allowedMethods(routeList, '/v1/fleets/flt_1')).toEqual(['DELETE', 'GET', 'PATCH']);
  });

  it('knows no method for a path the table does not have', () => {
    // Act / Assess
    expect(allowedMethods(routeList, '/v1/nope')).toEqual([]);
    expect(allowedMethods(routeList, '/v1/vehicles/')).toEqual([]);
    expect(allowedMethods(routeList, `/v1/vehicles/${VEHICLE_ID}/extra`)).toEqual([]);
  });
});

describe('the $default route', () => {
  it('answers a known path called with another method 405 method_not_allowed, with Allow', async () => {
    // Act
    const response = await call('PUT', `/v1/vehicles/${VEHICLE_ID}`);

    // Assess
    expect(response.status).toBe(405);
    expect(response.headers['Content-Type']).toMatch(/^application\/problem\+json/);
    expect(response.headers.Allow).toBe('GET, PATCH, OPTIONS');
    expect(response.json).toMatchObject({
      status: 405,
      code: 'method_not_allowed',
      title: 'Method not allowed on this path',
      detail: `/v1/vehicles/${VEHICLE_ID} does not accept PUT; it accepts GET, PATCH.`,
      allowed_methods: ['GET', 'PATCH'],
    });
    expect(response.json.hint).toContain('GET or PATCH');
    expect(response.json.request_id).toBe(response.headers['Request-Id']);
  });

  it('answers HEAD 405 too: the API serves no HEAD', async () => {
    // Act
    const response = await call('HEAD', '/v1/me');

    // Assess
    expect([response.status, response.headers.Allow]).toEqual([405, 'GET, OPTIONS']);
  });

  it('answers OPTIONS on a known path 204 with Allow, without a key', async () => {
    // Act
    const response = await call('OPTIONS', '/v1/vehicles');

    // Assess
    expect(response.status).toBe(204);
    expect(response.headers.Allow).toBe('GET, POST, OPTIONS');
    expect(response.headers['Request-Id']).toMatch(/^req_/);
  });

  it('answers an unknown path 404 resource_not_found whatever the method', async () => {
    // Act
    const get = await call('GET', '/v1/nope');
    const options = await call('OPTIONS', '/v1/nope');

    // Assess
    expect([get.status, get.json.code, get.headers.Allow]).toEqual([404, 'resource_not_found', undefined]);
    expect(get.json.detail).toBe('There is no route GET /v1/nope.');
    expect(options.status).toBe(404);
  });
});
