import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';

/**
 * The fleet's fuel_tax_treatment (ifta unless set) and a truck's override (null: the fleet's), read
 * and written through the local stack on a fleet of their own.
 */

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const partnerKey = { key: credentials.keys.partner_live };
const TREATMENT_MESSAGE =
  'must be ifta (price a gallon net of the state tax credited on the IFTA return) or pump (the pump price less the fleet’s discount)';

let auth: { key: string; fleet: string };

beforeAll(async () => {
  const created = await prod.post('/v1/fleets', {
    ...partnerKey,
    body: { name: `Tax treatment ${randomUUID().slice(0, 8)}`, timezone: 'America/Chicago' },
  });
  expect(created.status, created.text).toBe(201);
  expect(created.json.fuel_tax_treatment).toBe('ifta');
  auth = { ...partnerKey, fleet: created.json.id };
});

describe("the fleet's fuel_tax_treatment", () => {
  it('round-trips through PATCH /v1/fleet and the partner’s PATCH /v1/fleets/{id}', async () => {
    const pump = await prod.patch('/v1/fleet', { ...auth, body: { fuel_tax_treatment: 'pump' } });
    expect(pump.status, pump.text).toBe(200);
    expect(pump.json.fuel_tax_treatment).toBe('pump');
    expect((await prod.get('/v1/fleet', auth)).json.fuel_tax_treatment).toBe('pump');

    const ifta = await prod.patch(`/v1/fleets/${auth.fleet}`, {
      ...partnerKey,
      body: { fuel_tax_treatment: 'ifta' },
    });
    expect(ifta.status, ifta.text).toBe(200);
    expect((await prod.get(`/v1/fleets/${auth.fleet}`, partnerKey)).json.fuel_tax_treatment).toBe('ifta');
  });

  it('422 naming both values for anything else, and the setting stays', async () => {
    for (const value of ['IFTA', 'net', null]) {
      const refused = await prod.patch('/v1/fleet', { ...auth, body: { fuel_tax_treatment: value } });
      expectProblem(refused, 422, 'validation_failed');
      expect(refused.json.errors).toEqual([{ field: 'fuel_tax_treatment', message: TREATMENT_MESSAGE }]);
    }
    expect((await prod.get('/v1/fleet', auth)).json.fuel_tax_treatment).toBe('ifta');
  });
});

describe("a vehicle's fuel_tax_treatment", () => {
  it('is null (the fleet’s) unless set; set on create or PATCH, cleared with null', async () => {
    const plain = await prod.post('/v1/vehicles', { ...auth, body: { external_ref: `T-${randomUUID()}` } });
    expect(plain.status, plain.text).toBe(201);
    expect(plain.json.fuel_tax_treatment).toBeNull();

    const yard = await prod.post('/v1/vehicles', {
      ...auth,
      body: { external_ref: `T-${randomUUID()}`, fuel_tax_treatment: 'pump' },
    });
    expect(yard.status, yard.text).toBe(201);
    expect((await prod.get(`/v1/vehicles/${yard.json.id}`, auth)).json.fuel_tax_treatment).toBe('pump');

    const ifta = await prod.patch(`/v1/vehicles/${plain.json.id}`, {
      ...auth,
      body: { fuel_tax_treatment: 'ifta' },
    });
    expect(ifta.json.fuel_tax_treatment).toBe('ifta');
    const cleared = await prod.patch(`/v1/vehicles/${plain.json.id}`, {
      ...auth,
      body: { fuel_tax_treatment: null },
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect((await prod.get(`/v1/vehicles/${plain.json.id}`, auth)).json.fuel_tax_treatment).toBeNull();
  });

  it('422 naming both values for anything else, on create and on PATCH', async () => {
    const created = await prod.post('/v1/vehicles', {
      ...auth,
      body: { external_ref: `T-${randomUUID()}`, fuel_tax_treatment: 'diesel' },
    });
    expectProblem(created, 422, 'validation_failed');
    expect(created.json.errors).toEqual([{ field: 'fuel_tax_treatment', message: TREATMENT_MESSAGE }]);

    const vehicle = await prod.post('/v1/vehicles', { ...auth, body: { external_ref: `T-${randomUUID()}` } });
    const patched = await prod.patch(`/v1/vehicles/${vehicle.json.id}`, {
      ...auth,
      body: { fuel_tax_treatment: 1 },
    });
    expectProblem(patched, 422, 'validation_failed');
    expect(patched.json.errors).toEqual([{ field: 'fuel_tax_treatment', message: TREATMENT_MESSAGE }]);
  });
});
