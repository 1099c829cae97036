import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const dallas = { latitude: '32.7767', longitude: '-96.797' };

type FieldErrors = { field: string; message: string }[];

describe('422 messages a person can act on', () => {
  it('refuses a 950-gallon tank at 35 mpg with the accepted ranges and units', async () => {
    // Act
    const response = await prod.post('/v1/vehicles', {
      ...company,
      body: { external_ref: `T-${randomUUID().slice(0, 8)}`, tank_size_gallons: 950, estimated_mpg: 35 },
    });

    // Assess
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors).toEqual([
      { field: 'tank_size_gallons', message: 'must be between 5 and 400 gallons' },
      { field: 'estimated_mpg', message: 'must be between 2 and 30 mpg' },
    ]);
  });

  it('says "is required" and "must be a number", never zod’s wording', async () => {
    // Act
    const response = await prod.post('/v1/routes', {
      ...company,
      idempotencyKey: randomUUID(),
      body: { destination: { latitude: 'north', name: 'Denver' } },
    });

    // Assess
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors).toEqual(
      expect.arrayContaining([
        { field: 'destination.latitude', message: 'must be a number' },
        {
          field: 'destination.longitude',
          message: 'is required: latitude and longitude are required together',
        },
      ]),
    );
    expect(response.text).not.toMatch(/Invalid input|expected .+, received/);
  });

  it('suggests the near-miss field for an unknown body field', async () => {
    // Act
    const response = await prod.post('/v1/vehicles', {
      ...company,
      body: { external_ref: `T-${randomUUID().slice(0, 8)}`, tank_size_liters: 570 },
    });

    // Assess
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors).toEqual([
      { field: 'tank_size_liters', message: 'is not a recognized field; did you mean `tank_size_gallons`?' },
    ]);
  });
});

describe('query parameters', () => {
  it('refuses an unknown query parameter with a suggestion instead of ignoring it', async () => {
    // Act
    const response = await prod.get('/v1/stations', { ...company, query: { ...dallas, radius_km: 80 } });

    // Assess
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors).toEqual([
      { field: 'radius_km', message: 'is not a recognized field; did you mean `radius_miles`?' },
    ]);
  });

  it('refuses a query parameter on a route that takes none, and keeps cursor and limit on lists', async () => {
    // Act
    const me = await prod.get('/v1/me', { ...company, query: { verbose: 'true' } });
    const list = await prod.get('/v1/vehicles', { ...company, query: { limit: 1 } });

    // Assess
    expectProblem(me, 422, 'validation_failed');
    expect(me.json.errors).toEqual([{ field: 'verbose', message: 'is not a recognized field' }]);
    expect(list.status, list.text).toBe(200);
  });

  it('says latitude and longitude go together, and names the range', async () => {
    // Act
    const response = await prod.get('/v1/stations', {
      ...company,
      query: { latitude: dallas.latitude, radius_miles: 80 },
    });

    // Assess
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors).toEqual([
      { field: 'longitude', message: 'is required: latitude and longitude are required together' },
      { field: 'radius_miles', message: 'must be more than 0 and at most 50 miles' },
    ]);
  });
});

describe('numbers in the query string', () => {
  const WHOLE = 'must be a whole number written with the digits 0-9 only, e.g. 25';

  it.each([
    ['hex', '/v1/vehicles?limit=0x10', 'limit'],
    ['an exponent', '/v1/vehicles?limit=1e2', 'limit'],
    ['a space', '/v1/vehicles?limit=%205', 'limit'],
    ['a plus sign', '/v1/vehicles?limit=%2B5', 'limit'],
    ['an exponent in days', '/v1/integration/health/history?days=1e1', 'days'],
    ['hex in a station limit', `/v1/stations?latitude=32.7767&longitude=-96.797&limit=0x5`, 'limit'],
  ])('refuses %s in an integer parameter, naming it and the accepted form', async (_form, path, field) => {
    const response = await prod.get(path, company);
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors).toEqual([{ field, message: WHOLE }]);
  });

  it('refuses hex in a decimal parameter, and reads plain digits', async () => {
    const hex = await prod.get('/v1/stations?latitude=0x20&longitude=-96.797', company);
    expectProblem(hex, 422, 'validation_failed');
    expect(hex.json.errors).toEqual([
      {
        field: 'latitude',
        message:
          'must be a decimal number written with digits, an optional leading minus and an optional decimal point, e.g. -104.9903',
      },
    ]);
    const plain = await prod.get('/v1/vehicles?limit=16', company);
    expect(plain.status, plain.text).toBe(200);
    const days = await prod.get('/v1/integration/health/history?days=10', company);
    expect(days.status, days.text).toBe(200);
  });
});

describe('a bounded problem', () => {
  it('answers a 1.4 MB body of 150,000 unknown keys with a small 422 that counts them', async () => {
    // Prepare
    const body: Record<string, number> = { external_ref: 7 };
    for (let index = 0; index < 150_000; index += 1) body[`k${index}`] = index;

    // Act
    const response = await prod.post('/v1/vehicles', { ...company, body });

    // Assess
    expectProblem(response, 422, 'validation_failed');
    expect(JSON.stringify(body).length).toBeGreaterThan(1_400_000);
    expect(response.text.length).toBeLessThan(6_000);
    expect(response.json.errors as FieldErrors).toHaveLength(50);
    expect(response.json).toMatchObject({ errors_truncated: true, error_count: 150_001 });
    expect(response.json.detail).toMatch(/and 149998 more\.$/);
  });
});

describe('405 method_not_allowed', () => {
  it('answers a known path called with another method 405 with Allow, in the problem envelope', async () => {
    // Act
    const response = await prod.call('PUT', '/v1/vehicles/ext:TRUCK-042', {
      ...company,
      body: { name: 'x' },
    });

    // Assess
    expectProblem(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('GET, PATCH, OPTIONS');
    expect(response.json.hint).toContain('GET or PATCH');
  });

  it('answers OPTIONS 204 with Allow, and an unknown path still 404', async () => {
    // Act
    const options = await prod.call('OPTIONS', '/v1/vehicles');
    const unknown = await prod.call('PUT', '/v1/nothing-here', company);

    // Assess
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, POST, OPTIONS');
    expectProblem(unknown, 404, 'resource_not_found');
  });
});
