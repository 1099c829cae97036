import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';
import { guidanceClient } from './support-guidance.ts';

/**
 * min_arrival_fuel_percent is optional on guidance starts and POST /v1/routes: the acting fleet's
 * default_min_arrival_fuel_percent (10 until set) applies, set by partners with PATCH
 * /v1/fleets/{id} and by company keys with PATCH /v1/fleet.
 */

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const { keys } = credentials;
const partnerKey = { key: keys.partner_live };
const company = { key: keys.company_live };
const denver = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
const manualRoute = {
  origin: { latitude: 41.8781, longitude: -87.6298, name: 'Chicago' },
  destination: denver,
  tank_size_gallons: 200,
  estimated_mpg: 6.5,
  fuel_level_percent: 30,
};

async function newFleet(body: Record<string, unknown> = {}) {
  const created = await prod.post('/v1/fleets', {
    ...partnerKey,
    body: { name: `Margins ${randomUUID().slice(0, 8)}`, timezone: 'UTC', ...body },
  });
  expect(created.status, created.text).toBe(201);
  return created.json as { id: string; default_min_arrival_fuel_percent: number };
}

async function routeMargin(auth: { key: string; fleet?: string }, extra: Record<string, unknown> = {}) {
  const response = await prod.post('/v1/routes', {
    ...auth,
    idempotencyKey: randomUUID(),
    body: { ...manualRoute, ...extra },
  });
  expect(response.status, response.text).toBe(201);
  return response.json.fuel.min_arrival_fuel_percent as number;
}

describe('a partner fleet’s default_min_arrival_fuel_percent', () => {
  it('is 10 on a new fleet, and starts and routes with only a destination use it', async () => {
    const fleet = await newFleet();
    expect(fleet.default_min_arrival_fuel_percent).toBe(10);
    const auth = { ...partnerKey, fleet: fleet.id };
    const guidance = guidanceClient(prod, auth);
    const truck = await guidance.newTruck();

    const started = await guidance.start(truck.id, { destination: denver });
    expect(started.status).toBe(201);
    expect(started.json.min_arrival_fuel_percent).toBe(10);
    expect((await guidance.current(truck.id)).min_arrival_fuel_percent).toBe(10);
    expect(await routeMargin(auth)).toBe(10);
  });

  it('PATCH /v1/fleets/{id} sets it; later starts and routes use it, and a request’s own value wins', async () => {
    const fleet = await newFleet();
    const auth = { ...partnerKey, fleet: fleet.id };
    const guidance = guidanceClient(prod, auth);
    const truck = await guidance.newTruck();
    const before = (await guidance.start(truck.id, { destination: denver })).json;
    expect(before.min_arrival_fuel_percent).toBe(10);

    const patched = await prod.patch(`/v1/fleets/${fleet.id}`, {
      ...partnerKey,
      body: { default_min_arrival_fuel_percent: 25 },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.default_min_arrival_fuel_percent).toBe(25);
    expect((await prod.get(`/v1/fleets/${fleet.id}`, partnerKey)).text).toBe(patched.text);
    // GET /v1/fleet with SVC-Fleet shows the same fleet.
    expect((await prod.get('/v1/fleet', auth)).text).toBe(patched.text);

    // The running session keeps the margin it started with; a new start takes the new default.
    expect((await guidance.current(truck.id)).min_arrival_fuel_percent).toBe(10);
    expect((await guidance.start(truck.id, { destination: denver })).json.min_arrival_fuel_percent).toBe(25);
    expect(await routeMargin(auth)).toBe(25);

    expect(
      (await guidance.start(truck.id, { destination: denver, min_arrival_fuel_percent: 15 })).json
        .min_arrival_fuel_percent,
    ).toBe(15);
    expect(await routeMargin(auth, { min_arrival_fuel_percent: 0 })).toBe(0);
  });

  it('can be given when the fleet is provisioned', async () => {
    const fleet = await newFleet({ default_min_arrival_fuel_percent: 12.5 });
    expect(fleet.default_min_arrival_fuel_percent).toBe(12.5);
    expect(await routeMargin({ ...partnerKey, fleet: fleet.id })).toBe(12.5);
  });

  it('refuses values outside 0–50 with 422 naming the field and the range', async () => {
    const fleet = await newFleet();
    for (const value of [51, -1, '20', null]) {
      const response = await prod.patch(`/v1/fleets/${fleet.id}`, {
        ...partnerKey,
        body: { default_min_arrival_fuel_percent: value },
      });
      expectProblem(response, 422, 'validation_failed');
      expect(response.json.errors, JSON.stringify(value)).toEqual([
        { field: 'default_min_arrival_fuel_percent', message: 'must be a number from 0 to 50' },
      ]);
      expect(response.json.detail).toContain(
        'default_min_arrival_fuel_percent must be a number from 0 to 50',
      );
    }
    expect((await prod.get(`/v1/fleets/${fleet.id}`, partnerKey)).json.default_min_arrival_fuel_percent).toBe(
      10,
    );
  });

  it('answers 404 for a fleet not granted to the partner, and for a deactivated one', async () => {
    expectProblem(
      await prod.patch(`/v1/fleets/${credentials.fleets.company}`, {
        ...partnerKey,
        body: { default_min_arrival_fuel_percent: 40 },
      }),
      404,
      'resource_not_found',
    );
    const fleet = await newFleet();
    expect((await prod.delete(`/v1/fleets/${fleet.id}`, partnerKey)).status).toBe(204);
    expectProblem(
      await prod.patch(`/v1/fleets/${fleet.id}`, {
        ...partnerKey,
        body: { default_min_arrival_fuel_percent: 40 },
      }),
      404,
      'resource_not_found',
    );
  });
});

describe('a company key: GET and PATCH /v1/fleet', () => {
  let original: number;

  beforeAll(async () => {
    const own = await prod.get('/v1/fleet', company);
    expect(own.status, own.text).toBe(200);
    original = own.json.default_min_arrival_fuel_percent;
  });

  afterAll(async () => {
    // The company fleet is shared by the suite: leave its setting as it was.
    await prod.patch('/v1/fleet', { ...company, body: { default_min_arrival_fuel_percent: original } });
  });

  it('reads its own fleet, sets the default, and starts and routes with only a destination use it', async () => {
    const own = await prod.get('/v1/fleet', company);
    expect(own.json.id).toBe(credentials.fleets.company);
    expect(own.json.default_min_arrival_fuel_percent).toBeTypeOf('number');

    const patched = await prod.patch('/v1/fleet', {
      ...company,
      body: { default_min_arrival_fuel_percent: 30 },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({
      id: credentials.fleets.company,
      default_min_arrival_fuel_percent: 30,
    });
    expect((await prod.get('/v1/fleet', company)).text).toBe(patched.text);

    const guidance = guidanceClient(prod, company);
    const truck = await guidance.newTruck();
    expect((await guidance.start(truck.id, { destination: denver })).json.min_arrival_fuel_percent).toBe(30);
    expect(await routeMargin(company)).toBe(30);
  });

  it('changes the setting only, within 0–50, and cannot reach /v1/fleets', async () => {
    const cases = [
      { body: { default_min_arrival_fuel_percent: 75 }, fields: ['default_min_arrival_fuel_percent'] },
      { body: { assumed_departure_fuel_percent: 101 }, fields: ['assumed_departure_fuel_percent'] },
      { body: { fuel_tax_treatment: 'net' }, fields: ['fuel_tax_treatment'] },
      {
        body: {},
        fields: [
          'default_min_arrival_fuel_percent',
          'assumed_departure_fuel_percent',
          'fuel_tax_treatment',
          'fuel_program',
          'truck_profile',
        ],
      },
    ];
    for (const { body, fields } of cases) {
      const response = await prod.patch('/v1/fleet', { ...company, body });
      expectProblem(response, 422, 'validation_failed');
      expect(response.json.errors.map((e: { field: string }) => e.field)).toEqual(fields);
    }
    const renamed = await prod.patch('/v1/fleet', {
      ...company,
      body: { default_min_arrival_fuel_percent: 20, name: 'Mine now' },
    });
    expectProblem(renamed, 422, 'validation_failed');
    expect(renamed.json.errors.map((e: { field: string }) => e.field)).toEqual(['name']);

    const partnerRoute = await prod.patch(`/v1/fleets/${credentials.fleets.company}`, {
      ...company,
      body: { default_min_arrival_fuel_percent: 20 },
    });
    expectProblem(partnerRoute, 403, 'insufficient_scope');
    const readOnly = await prod.patch('/v1/fleet', {
      key: keys.company_readonly,
      body: { default_min_arrival_fuel_percent: 20 },
    });
    expectProblem(readOnly, 403, 'insufficient_scope');
    expect(readOnly.json.required_scope).toBe('vehicles:manage');
  });

  it('a partner key acts only on fleets it names and holds: another fleet is 403 fleet_scope_mismatch', async () => {
    expectProblem(
      await prod.patch('/v1/fleet', {
        ...partnerKey,
        fleet: credentials.fleets.company,
        body: { default_min_arrival_fuel_percent: 40 },
      }),
      403,
      'fleet_scope_mismatch',
    );
    expectProblem(await prod.get('/v1/fleet', partnerKey), 400, 'fleet_header_required');
  });
});

describe('min_arrival_fuel_percent in requests', () => {
  it('refuses values outside 0–100 with 422 naming the field and the range, on guidance and routes', async () => {
    const guidance = guidanceClient(prod, company);
    const truck = await guidance.newTruck();
    for (const value of [101, -1, '15']) {
      const started = await prod.post(guidance.path(truck.id), {
        ...company,
        body: { destination: denver, min_arrival_fuel_percent: value },
      });
      const routed = await prod.post('/v1/routes', {
        ...company,
        idempotencyKey: randomUUID(),
        body: { ...manualRoute, min_arrival_fuel_percent: value },
      });
      for (const response of [started, routed]) {
        expectProblem(response, 422, 'validation_failed');
        expect(response.json.errors).toEqual([
          { field: 'min_arrival_fuel_percent', message: 'must be a number from 0 to 100' },
        ]);
      }
    }
  });
});
