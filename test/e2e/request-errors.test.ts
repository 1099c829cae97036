import { describe, expect, it } from 'vitest';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };

describe('415 unsupported_media_type', () => {
  it('for a POST without a body', async () => {
    expectProblem(await prod.post('/v1/vehicles', company), 415, 'unsupported_media_type');
  });

  it('for a JSON body sent without Content-Type: application/json', async () => {
    const response = await prod.post('/v1/vehicles', {
      ...company,
      rawBody: '{"external_ref":"X"}',
      headers: { 'content-type': 'text/plain' },
    });
    expectProblem(response, 415, 'unsupported_media_type');
  });

  it('for a form-encoded PATCH', async () => {
    const response = await prod.patch('/v1/vehicles/ext:X', {
      ...company,
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectProblem(response, 415, 'unsupported_media_type');
  });
});

describe('422 validation_failed', () => {
  it('lists every bad field with dotted paths', async () => {
    const response = await prod.post('/v1/vehicles', {
      ...company,
      body: { external_ref: '', tank_size_gallons: -5, vin: 'IOQ', colour: 'red' },
    });
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.title).toBe('Request failed validation');
    const fields = response.json.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['colour', 'external_ref', 'tank_size_gallons', 'vin']);
  });

  it('applies to query parameters too', async () => {
    const response = await prod.get('/v1/vehicles', { ...company, query: { status: 'parked', limit: 0 } });
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(['limit', 'status']);
  });

  it('for malformed JSON', async () => {
    const response = await prod.post('/v1/vehicles', {
      ...company,
      rawBody: '{"external_ref":',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors).toEqual([
      {
        field: 'body',
        message: 'is not valid JSON: the body ends before the JSON is complete at line 1, column 17',
      },
    ]);
  });

  it('says where malformed JSON goes wrong in our words, never the parser’s text or the body', async () => {
    // A trailing comma on line 3: V8 says "Expected double-quoted property name in JSON at position …".
    const response = await prod.post('/v1/vehicles', {
      ...company,
      rawBody: '{\n  "external_ref": "BODY-MARKER-1",\n  "name": "x",\n}',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.detail).toBe(
      'The request body is not valid JSON: a property name in double quotes was expected at line 4, column 1.',
    );
    expect(response.json.hint).toBe('send one JSON object; fix the body at line 4, column 1');
    expect(response.text).not.toMatch(/BODY-MARKER-1|position|Expected double-quoted/);
  });

  it('says a body that starts with a byte-order mark does, without echoing it', async () => {
    const response = await prod.post('/v1/vehicles', {
      ...company,
      rawBody: Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from('{"external_ref":"BOM-MARKER-2"}'),
      ]),
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.detail).toBe(
      'The request body starts with a byte-order mark (U+FEFF) before the JSON.',
    );
    expect(response.json.hint).toBe('send the body as UTF-8 without a byte-order mark');
    expect(response.text).not.toContain('BOM-MARKER-2');
  });
});

// Deployed, API Gateway itself refuses these before any function runs, in its own format
// (docs/limits.md, "Transport limits"); the local stack answers them in the problem envelope.
describe.runIf(isLocalTarget())('transport limits on the local stack', () => {
  it('answers an 11 MB body 413 payload_too_large as a problem', async () => {
    const response = await prod.post('/v1/vehicles', {
      ...company,
      rawBody: `{"external_ref":"${'x'.repeat(11 * 1024 * 1024)}"}`,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 413, 'payload_too_large');
    expect(response.json.hint).toBe(
      'send at most 10 MB in one request; split the data over several requests',
    );
  });

  it('answers a 100 KB query 431 headers_too_large as a problem', async () => {
    const response = await prod.get(`/v1/vehicles?external_ref=${'x'.repeat(100_000)}`, company);
    expectProblem(response, 431, 'headers_too_large');
    expect(response.json.detail).toBe(
      'The request line and headers are over 10240 bytes together (a long query string counts).',
    );
  });
});

describe('400 invalid_public_id', () => {
  it.each([
    ['wrong prefix', '/v1/vehicles/flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2'],
    ['malformed', '/v1/vehicles/veh_123'],
    ['empty ext:', '/v1/vehicles/ext:'],
  ])('for a %s vehicle id', async (_case, path) => {
    expectProblem(await prod.get(path, company), 400, 'invalid_public_id');
  });

  it('for a malformed fleet id', async () => {
    expectProblem(
      await prod.get('/v1/fleets/veh_01JD7ZK3M4N5P6Q7R8S9T0V1W2', { key: credentials.keys.partner_live }),
      400,
      'invalid_public_id',
    );
  });
});

describe('400 invalid_cursor', () => {
  it('for garbage, for a tampered cursor, and for a cursor of another list', async () => {
    expectProblem(
      await prod.get('/v1/vehicles', { ...company, query: { cursor: 'nope' } }),
      400,
      'invalid_cursor',
    );

    // Make sure there are at least two vehicles so a first page of one has a cursor.
    for (let i = 0; i < 2; i++) {
      await prod.post('/v1/vehicles', { ...company, body: { external_ref: `CUR-${Date.now()}-${i}` } });
    }
    const page = await prod.get('/v1/vehicles', { ...company, query: { limit: 1 } });
    const cursor: string = page.json.next_cursor;
    expect(cursor).toBeTypeOf('string');
    expect((await prod.get('/v1/vehicles', { ...company, query: { limit: 1, cursor } })).status).toBe(200);

    const [payload, signature] = cursor.split('.');
    const tampered = `${payload?.slice(0, -2)}AA.${signature}`;
    expectProblem(
      await prod.get('/v1/vehicles', { ...company, query: { cursor: tampered } }),
      400,
      'invalid_cursor',
    );
    expectProblem(
      await prod.get('/v1/vehicles', { ...company, query: { cursor, status: 'inactive' } }),
      400,
      'invalid_cursor',
    );
  });
});

describe('unknown routes', () => {
  it.each([
    ['GET', '/v1/nope'],
    ['DELETE', '/v1/vehicles/ext:X/nope'],
    ['POST', '/v1/fleets/flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2/explode'],
  ] as const)('%s %s → 404 resource_not_found with a hint naming the route', async (method, path) => {
    // A non-JSON body must not turn the 404 into a 415 (fetch sends no body with GET).
    const body = method === 'GET' ? {} : { rawBody: 'x', headers: { 'content-type': 'text/plain' } };
    const response = await prod.call(method, path, { ...company, ...body });
    expectProblem(response, 404, 'resource_not_found');
    expect(response.json.hint).toContain(`${method} ${path}`);
  });

  it('a known path with a method it does not serve → 405 method_not_allowed with Allow, body or not', async () => {
    const response = await prod.call('DELETE', '/v1/vehicles', {
      ...company,
      rawBody: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expectProblem(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('GET, POST, OPTIONS');
  });
});

describe('discovery', () => {
  it('serves OpenAPI 3.1 anonymously with this stage as the server', async () => {
    const response = await prod.get('/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.json.openapi).toMatch(/^3\.1/);
    expect(response.json.servers[0].url).toBe(credentials.base_url);
  });

  it('serves the error registry that problem types point to', async () => {
    const response = await prod.get('/v1/errors');
    expect(response.status).toBe(200);
    const codes = response.json.data.map((e: { code: string }) => e.code);
    expect(codes).toContain('fleet_scope_mismatch');
    expect(codes).toContain('routing_unreachable');
  });
});
