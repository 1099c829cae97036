import { describe, expect, it } from 'vitest';
import {
  type CallerEvent,
  eventForToolCall,
  SECRET_WITHHELD,
  toolResultFor,
} from '#shared/agents/mcp/tool-call.ts';
import { routes } from '#shared/api/route-table.ts';

const caller: CallerEvent = {
  headers: {
    authorization: 'Bearer svc_live_abc',
    host: 'api.example.test',
    'x-forwarded-proto': 'https',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  },
  requestContext: {
    accountId: 'local',
    apiId: 'local',
    domainName: 'api.example.test',
    domainPrefix: 'api',
    http: { method: 'POST', path: '/v1/mcp', protocol: 'HTTP/1.1', sourceIp: '10.0.0.1', userAgent: 'agent' },
    requestId: 'r1',
    routeKey: 'POST /v1/mcp',
    stage: '$default',
    time: '24/Nov/2026:00:00:00 +0000',
    timeEpoch: 0,
  },
};

describe('eventForToolCall', () => {
  it('splits arguments back into path, query, body and headers by the route’s schemas', () => {
    const event = eventForToolCall(
      routes.skipGuidanceStop,
      { id: 'ext:TRUCK 42', stopId: 'gds_01JD7ZK3M4N5P6Q7R8S9T0V1W2', reason: 'closed', fleet_id: 'fleet_X' },
      caller,
    );
    expect(event.routeKey).toBe('POST /v1/vehicles/{id}/guidance/stops/{stopId}/skip');
    expect(event.rawPath).toBe(
      '/v1/vehicles/ext%3ATRUCK%2042/guidance/stops/gds_01JD7ZK3M4N5P6Q7R8S9T0V1W2/skip',
    );
    expect(event.pathParameters).toEqual({ id: 'ext:TRUCK 42', stopId: 'gds_01JD7ZK3M4N5P6Q7R8S9T0V1W2' });
    expect(JSON.parse(event.body ?? '')).toEqual({ reason: 'closed' });
    expect(event.headers).toEqual({
      authorization: 'Bearer svc_live_abc',
      host: 'api.example.test',
      'x-forwarded-proto': 'https',
      'content-type': 'application/json',
      'svc-fleet': 'fleet_X',
    });
    expect(event.requestContext.http.method).toBe('POST');
    expect(event.requestContext.domainName).toBe('api.example.test');
  });

  it('sends query values as strings and no body for a GET', () => {
    const event = eventForToolCall(routes.listTrips, { status: 'active', limit: 5 }, caller);
    expect(event.queryStringParameters).toEqual({ status: 'active', limit: '5' });
    expect(event.rawQueryString).toBe('status=active&limit=5');
    expect(event.body).toBeUndefined();
    expect(event.headers['content-type']).toBeUndefined();
  });

  it('sends no body for an optional-body action called without arguments', () => {
    const event = eventForToolCall(routes.cancelTrip, { id: 'trip_01JD7ZK3M4N5P6Q7R8S9T0V1W2' }, caller);
    expect(event.body).toBeUndefined();
  });

  it('passes integration health’s fleet_id as its query parameter, not as SVC-Fleet', () => {
    const event = eventForToolCall(routes.getIntegrationHealth, { fleet_id: 'fleet_Y' }, caller);
    expect(event.queryStringParameters).toEqual({ fleet_id: 'fleet_Y' });
    expect(event.headers['svc-fleet']).toBeUndefined();
  });

  it('sends the caller’s idempotency_key as the Idempotency-Key, and never makes one up', () => {
    const body = { origin: { latitude: 1, longitude: 2 } };
    const given = eventForToolCall(routes.createRoute, { ...body, idempotency_key: 'mine' }, caller);
    expect(given.headers['idempotency-key']).toBe('mine');
    expect(JSON.parse(given.body ?? '')).toEqual(body);
    // Without one the route answers 400 idempotency_key_required, as over HTTP.
    expect(eventForToolCall(routes.createRoute, body, caller).headers).not.toHaveProperty('idempotency-key');
    expect(eventForToolCall(routes.createVehicle, { external_ref: 'A' }, caller).headers).not.toHaveProperty(
      'idempotency-key',
    );
  });

  it('leaves an unknown argument in the body, where the strict schema refuses it by name', () => {
    const event = eventForToolCall(
      routes.createVehicle,
      { external_ref: 'A', tank_size_gallon: 100 },
      caller,
    );
    expect(JSON.parse(event.body ?? '')).toEqual({ external_ref: 'A', tank_size_gallon: 100 });
  });
});

describe('toolResultFor', () => {
  const route = routes.getVehicle;

  it('hands back the API’s JSON as text and structured content', () => {
    const body = '{"id":"veh_1","name":"T"}';
    expect(toolResultFor(route, { statusCode: 200, body })).toEqual({
      content: [{ type: 'text', text: body }],
      structuredContent: { id: 'veh_1', name: 'T' },
    });
  });

  it('withholds a signing secret the API answered (create_webhook), keeping the rest', () => {
    const body = '{"id":"whk_1","url":"https://hooks.example/x","secret":"whsec_abc"}';
    const result = toolResultFor(routes.createWebhook, { statusCode: 201, body });
    expect(result.content[0]?.text).not.toContain('whsec_abc');
    expect(result.structuredContent).toEqual({
      id: 'whk_1',
      url: 'https://hooks.example/x',
      secret: SECRET_WITHHELD,
    });
  });

  it('says what was done for a 204', () => {
    const result = toolResultFor(routes.cancelGuidance, { statusCode: 204, body: '' });
    expect(result.isError).toBeUndefined();
    expect(result.content[0]?.text).toContain('DELETE /v1/vehicles/{id}/guidance answered 204');
  });

  it('turns a problem into isError with code, detail, hint and errors', () => {
    const problem = {
      type: 'x',
      title: 'Request failed validation',
      status: 422,
      code: 'validation_failed',
      detail: 'external_ref is required',
      hint: 'fix the fields in `errors`',
      errors: [{ field: 'external_ref', code: 'required', message: 'is required' }],
      request_id: 'req_1',
    };
    const result = toolResultFor(route, { statusCode: 422, body: JSON.stringify(problem) });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      status: 422,
      code: 'validation_failed',
      detail: 'external_ref is required',
      hint: 'fix the fields in `errors`',
      errors: problem.errors,
    });
    expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(result.structuredContent);
  });

  describe('idempotency problems, in the words of a tool call', () => {
    const problem = (code: string, detail: string) => ({
      statusCode: code === 'idempotency_key_required' ? 400 : code === 'idempotency_conflict' ? 409 : 422,
      body: JSON.stringify({ code, detail, hint: 'send a unique key of at most 64 characters' }),
    });

    it('names the idempotency_key argument, not a header, when the key is missing', () => {
      const result = toolResultFor(
        routes.createRoute,
        problem('idempotency_key_required', 'Send an Idempotency-Key header with this request.'),
        { vehicle_id: 'ext:T-1' },
      );
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({
        status: 400,
        code: 'idempotency_key_required',
        detail: 'This tool needs the idempotency_key argument.',
        hint: 'pass idempotency_key: a value unique to this operation, at most 64 characters (a UUID will do); pass the same value when retrying, so the call runs once',
      });
      expect(result.content[0]?.text).not.toMatch(/header/i);
    });

    it('says how long a too-long idempotency_key argument is', () => {
      const result = toolResultFor(
        routes.createRoute,
        problem(
          'idempotency_key_required',
          'The Idempotency-Key header is 70 characters; at most 64 are allowed.',
        ),
        { idempotency_key: 'k'.repeat(70) },
      );
      expect(result.structuredContent?.detail).toBe(
        'the idempotency_key argument is 70 characters; at most 64 are allowed.',
      );
    });

    it('speaks of arguments, not bodies or headers, for a reused or in-flight key', () => {
      const reuse = toolResultFor(
        routes.createRoute,
        problem(
          'idempotency_key_reuse',
          'This Idempotency-Key was already used with a different request body.',
        ),
        { idempotency_key: 'k1' },
      );
      const inFlight = toolResultFor(
        routes.createRoute,
        problem('idempotency_conflict', 'A request with this Idempotency-Key is still being processed.'),
        { idempotency_key: 'k1' },
      );
      expect(reuse.structuredContent).toMatchObject({
        detail: 'This idempotency_key was already used with different arguments.',
        hint: 'pass a new idempotency_key, or the same arguments as the first call to get its answer again',
      });
      expect(inFlight.structuredContent).toMatchObject({
        detail: 'A call with this idempotency_key is still being processed.',
        hint: 'wait, then call again with the same idempotency_key',
      });
    });
  });

  it('keeps Retry-After on a rate-limited call', () => {
    const result = toolResultFor(route, {
      statusCode: 429,
      headers: { 'Retry-After': '12' },
      body: JSON.stringify({ code: 'rate_limited', detail: 'slow down', hint: 'retry later' }),
    });
    expect(result.structuredContent).toMatchObject({ code: 'rate_limited', retry_after_seconds: 12 });
  });
});
