import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';

/**
 * A fleet's fuel card program through the local stack: set with PATCH /v1/fleets/{id} (partner)
 * and PATCH /v1/fleet (a company's owner key; another company key is refused), read back on every
 * view of the fleet, and filtering the station queries. The partner's fleets are its own; the
 * company's is the sandbox twin, whose program is put back as it was.
 */

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const sandbox = api(credentials.sandbox_base_url);
const partnerKey = { key: credentials.keys.partner_live };
const companyOwner = { key: credentials.keys.company_test };
// Amarillo, TX: on I-40, where the catalog has stations of several chains within 50 miles.
const amarillo = { latitude: 35.222, longitude: -101.831 };
const PROGRAM_CHAINS = new Set(["Love's", 'Pilot Flying J']);

interface Station {
  id: string;
  chain: string;
  discount_usd_per_gallon: number;
  in_fuel_program: boolean | null;
}

async function newFleet() {
  const created = await prod.post('/v1/fleets', {
    ...partnerKey,
    body: { name: `Card ${randomUUID().slice(0, 8)}`, timezone: 'America/Chicago' },
  });
  expect(created.status, created.text).toBe(201);
  return created.json as { id: string; fuel_program: unknown };
}

const nearby = (auth: { key: string; fleet?: string }, acceptedOnly: boolean) =>
  prod.get('/v1/stations', {
    ...auth,
    query: { ...amarillo, radius_miles: 50, limit: 25, ...(acceptedOnly ? { accepted_only: 'true' } : {}) },
  });

describe('a partner sets a fleet’s fuel card program', () => {
  it('has none on a new fleet; accepted_only is then 422, naming what to do', async () => {
    const fleet = await newFleet();
    expect(fleet.fuel_program).toEqual({
      rule: 'none',
      chains: [],
      off_program_penalty_usd_per_gallon: 0,
      updated_at: null,
    });
    const refused = await nearby({ ...partnerKey, fleet: fleet.id }, true);
    expectProblem(refused, 422, 'validation_failed');
    expect((refused.json as unknown as { errors: unknown }).errors).toEqual([
      {
        field: 'accepted_only',
        message: 'the fleet has no fuel card program: set fuel_program with PATCH /v1/fleet',
      },
    ]);
  });

  it('PATCH /v1/fleets/{id} replaces it; every view shows it; station queries filter and mark by it', async () => {
    const fleet = await newFleet();
    const auth = { ...partnerKey, fleet: fleet.id };
    const patched = await prod.patch(`/v1/fleets/${fleet.id}`, {
      ...partnerKey,
      body: {
        fuel_program: {
          rule: 'preferred',
          chains: [
            { chain: "Love's", discount_usd_per_gallon: 0.12 },
            // Spelled as the fleet's card statement spells it: matched whatever the case.
            { chain: 'PILOT FLYING J', discount_usd_per_gallon: 0.155 },
          ],
          off_program_penalty_usd_per_gallon: 0.08,
        },
      },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.fuel_program).toEqual({
      rule: 'preferred',
      chains: [
        { chain: "Love's", discount_usd_per_gallon: 0.12 },
        { chain: 'PILOT FLYING J', discount_usd_per_gallon: 0.155 },
      ],
      off_program_penalty_usd_per_gallon: 0.08,
      updated_at: patched.json.updated_at,
    });
    expect((await prod.get(`/v1/fleets/${fleet.id}`, partnerKey)).text).toBe(patched.text);
    expect((await prod.get('/v1/fleet', auth)).text).toBe(patched.text);

    const accepted = await nearby(auth, true);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json.data.length).toBeGreaterThan(0);
    for (const station of accepted.json.data as Station[]) {
      expect(PROGRAM_CHAINS.has(station.chain), station.chain).toBe(true);
      expect(station.in_fuel_program).toBe(true);
      expect(station.discount_usd_per_gallon).toBe(station.chain === "Love's" ? 0.12 : 0.155);
    }

    // Without the filter: the other chains too, each saying it is off the program.
    const all: Station[] = (await nearby(auth, false)).json.data;
    const off = all.filter((station) => !PROGRAM_CHAINS.has(station.chain));
    expect(off.length).toBeGreaterThan(0);
    for (const station of off)
      expect([station.in_fuel_program, station.discount_usd_per_gallon]).toEqual([false, 0]);

    const along = await prod.post<{ data: Station[] }>('/v1/stations/along-route', {
      ...auth,
      body: {
        origin: amarillo,
        destination: { latitude: 35.4676, longitude: -97.5164 },
        max_results: 20,
        accepted_only: true,
      },
    });
    expect(along.status, along.text).toBe(200);
    expect(along.json.data.length).toBeGreaterThan(0);
    expect(along.json.data.every((s) => PROGRAM_CHAINS.has(s.chain) && s.in_fuel_program === true)).toBe(
      true,
    );
  });

  it('PATCH /v1/fleet with SVC-Fleet may set it too; a bad program is 422 naming the member', async () => {
    const fleet = await newFleet();
    const auth = { ...partnerKey, fleet: fleet.id };
    const set = await prod.patch('/v1/fleet', {
      ...auth,
      body: { fuel_program: { rule: 'required', chains: [{ chain: 'TA' }] } },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.json.fuel_program).toMatchObject({
      rule: 'required',
      chains: [{ chain: 'TA', discount_usd_per_gallon: 0 }],
      off_program_penalty_usd_per_gallon: 0,
    });

    const duplicate = await prod.patch(`/v1/fleets/${fleet.id}`, {
      ...partnerKey,
      body: { fuel_program: { rule: 'required', chains: [{ chain: "Love's" }, { chain: 'love’s' }] } },
    });
    expectProblem(duplicate, 422, 'validation_failed');
    expect((duplicate.json as unknown as { errors: unknown }).errors).toEqual([
      {
        field: 'fuel_program.chains.1.chain',
        message: 'is the same chain as chains[0] (case and apostrophes do not matter): list each chain once',
      },
    ]);
    const empty = await prod.patch('/v1/fleet', {
      ...auth,
      body: { fuel_program: { rule: 'preferred', chains: [] } },
    });
    expectProblem(empty, 422, 'validation_failed');
    expect((await prod.get('/v1/fleet', auth)).json.fuel_program).toEqual(set.json.fuel_program);
  });
});

describe('a company key and its fleet’s program (the sandbox twin)', () => {
  let original: unknown;
  let narrowKey: { id: string; secret: string } | undefined;

  beforeAll(async () => {
    const own = await sandbox.get('/v1/fleet', companyOwner);
    expect(own.status, own.text).toBe(200);
    original = own.json.fuel_program;
    const created = await prod.post('/v1/keys', {
      key: credentials.keys.company_live,
      body: { owner_type: 'company', name: 'e2e fleet settings', scopes: ['vehicles:manage'], mode: 'test' },
    });
    expect(created.status, created.text).toBe(201);
    narrowKey = created.json;
  });

  afterAll(async () => {
    // The twin is shared by the suite: leave its program as the seed wrote it.
    const { rule, chains, off_program_penalty_usd_per_gallon } = original as Record<string, unknown>;
    await sandbox.patch('/v1/fleet', {
      ...companyOwner,
      body: { fuel_program: { rule, chains, off_program_penalty_usd_per_gallon } },
    });
    if (narrowKey) {
      await prod.post(`/v1/keys/${narrowKey.id}/revoke`, {
        key: credentials.keys.company_live,
        body: { reason: 'e2e done' },
      });
    }
  });

  it('the owner key (keys:manage) sets it, and GET /v1/fleet shows it', async () => {
    // The seeded chains in another order, with a penalty `required` ignores: plans stay the same.
    const body = {
      fuel_program: {
        rule: 'required',
        chains: [
          { chain: 'Pilot Flying J', discount_usd_per_gallon: 0.15 },
          { chain: "Love's", discount_usd_per_gallon: 0.12 },
        ],
        off_program_penalty_usd_per_gallon: 0.05,
      },
    };
    const patched = await sandbox.patch('/v1/fleet', { ...companyOwner, body });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.fuel_program).toEqual({ ...body.fuel_program, updated_at: patched.json.updated_at });
    expect((await sandbox.get('/v1/fleet', companyOwner)).json.fuel_program).toEqual(
      patched.json.fuel_program,
    );
  });

  it('a company key without keys:manage is 403 insufficient_scope for it, and the program stays', async () => {
    const key = { key: narrowKey?.secret as string };
    const before = (await sandbox.get('/v1/fleet', key)).json.fuel_program;
    const refused = await sandbox.patch('/v1/fleet', {
      ...key,
      body: { fuel_program: { rule: 'none', chains: [] } },
    });
    expectProblem(refused, 403, 'insufficient_scope');
    expect(refused.json).toMatchObject({ required_scope: 'keys:manage' });
    expect((await sandbox.get('/v1/fleet', key)).json.fuel_program).toEqual(before);
  });
});
