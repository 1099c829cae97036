import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const { keys } = credentials;
const partner = { key: keys.partner_live };
const company = { key: keys.company_live };
const unique = () => randomUUID().slice(0, 8);
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** A VIN-shaped random value (17 chars, no I/O/Q) so reruns against a deployed stage don't merge. */
const randomVin = () =>
  Array.from({ length: 17 }, () => 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789'[Math.floor(Math.random() * 33)]).join(
    '',
  );

describe('fleets (partner provisioning)', () => {
  it('creates a fleet (201) that a GET returns byte for byte, and lists it', async () => {
    const created = await prod.post('/v1/fleets', {
      ...partner,
      body: {
        name: `Fleet ${unique()}`,
        timezone: 'America/Denver',
        contact_email: 'ops@fleet.test',
        external_ref: 'crm-1',
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.id).toMatch(/^flt_/);
    expect(created.json.created_at).toMatch(TIMESTAMP);

    const fetched = await prod.get(`/v1/fleets/${created.json.id}`, partner);
    expect(fetched.status).toBe(200);
    expect(fetched.text).toBe(created.text);

    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await prod.get('/v1/fleets', { ...partner, query: { limit: 100, cursor } });
      expect(page.status).toBe(200);
      ids.push(...page.json.data.map((f: { id: string }) => f.id));
      cursor = page.json.next_cursor ?? undefined;
    } while (cursor);
    expect(ids).toContain(created.json.id);
  });

  it('lets the partner act on the new fleet right away with SVC-Fleet', async () => {
    const fleet = (await prod.post('/v1/fleets', { ...partner, body: { name: 'New', timezone: 'UTC' } }))
      .json;
    const vehicle = await prod.post('/v1/vehicles', {
      ...partner,
      fleet: fleet.id,
      body: { external_ref: 'T-1' },
    });
    expect(vehicle.status, vehicle.text).toBe(201);
  });

  it('patches name, contact_email and external_ref', async () => {
    const fleet = (await prod.post('/v1/fleets', { ...partner, body: { name: 'Before', timezone: 'UTC' } }))
      .json;
    const patched = await prod.patch(`/v1/fleets/${fleet.id}`, {
      ...partner,
      body: { name: 'After', contact_email: 'new@fleet.test', external_ref: 'crm-9' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({
      name: 'After',
      contact_email: 'new@fleet.test',
      external_ref: 'crm-9',
    });
    expect((await prod.get(`/v1/fleets/${fleet.id}`, partner)).text).toBe(patched.text);
  });

  it('soft-deletes (204): the fleet is gone for the partner and its SVC-Fleet stops working', async () => {
    const fleet = (await prod.post('/v1/fleets', { ...partner, body: { name: 'Doomed', timezone: 'UTC' } }))
      .json;
    const deleted = await prod.delete(`/v1/fleets/${fleet.id}`, partner);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectProblem(await prod.get(`/v1/fleets/${fleet.id}`, partner), 404, 'resource_not_found');
    expectProblem(
      await prod.get('/v1/vehicles', { ...partner, fleet: fleet.id }),
      403,
      'fleet_scope_mismatch',
    );
  });

  it('answers 404 for a fleet that is not granted to the partner', async () => {
    expectProblem(
      await prod.get(`/v1/fleets/${credentials.fleets.company}`, partner),
      404,
      'resource_not_found',
    );
  });

  it('rejects a bad timezone and email with 422 naming each field', async () => {
    const response = await prod.post('/v1/fleets', {
      ...partner,
      body: { name: 'X', timezone: 'Mars/Olympus_Mons', contact_email: 'not-an-email' },
    });
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'contact_email',
      'timezone',
    ]);
  });
});

describe('vehicles', () => {
  it('creates (201) and GETs byte for byte, by id and by ext:<external_ref>', async () => {
    const ref = `TRK/${unique()} #1`;
    const created = await prod.post('/v1/vehicles', {
      ...company,
      body: {
        external_ref: ref,
        name: 'Kenworth T680',
        tank_size_gallons: 240.5,
        estimated_mpg: 6.8,
        license_plate: 'TX 123',
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json).not.toHaveProperty('merged_with_existing');
    expect(created.json.tank_size_gallons).toBe(240.5);

    expect((await prod.get(`/v1/vehicles/${created.json.id}`, company)).text).toBe(created.text);
    const byRef = await prod.get(`/v1/vehicles/${encodeURIComponent(`ext:${ref}`)}`, company);
    expect(byRef.status, byRef.text).toBe(200);
    expect(byRef.text).toBe(created.text);
  });

  it('merges by VIN: 200 with merged_with_existing and the new ref linked', async () => {
    const vin = randomVin();
    const first = (
      await prod.post('/v1/vehicles', { ...company, body: { external_ref: `ELD-${unique()}`, vin } })
    ).json;
    const secondRef = `TMS-${unique()}`;
    const merged = await prod.post('/v1/vehicles', {
      ...company,
      body: { external_ref: secondRef, vin: vin.toLowerCase() },
    });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.json).toMatchObject({
      id: first.id,
      merged_with_existing: true,
      linked_external_refs: [secondRef],
    });
    expect((await prod.get(`/v1/vehicles/ext:${secondRef}`, company)).json.id).toBe(first.id);
  });

  it('answers 409 resource_conflict for a duplicate external_ref, naming the vehicle that has it', async () => {
    const ref = `DUP-${unique()}`;
    const first = await prod.post('/v1/vehicles', { ...company, body: { external_ref: ref } });
    const again = await prod.post('/v1/vehicles', { ...company, body: { external_ref: ref } });
    expectProblem(again, 409, 'resource_conflict');
    expect(again.json.detail).toBe(
      `external_ref ${ref} already belongs to vehicle ${first.json.id} in this fleet.`,
    );
    expect(again.json.hint).toContain(`GET /v1/vehicles/${first.json.id}`);
  });

  it('never creates two vehicles from concurrent creates with one external_ref', async () => {
    const ref = `RACE-${unique()}`;
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => prod.post('/v1/vehicles', { ...company, body: { external_ref: ref } })),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of responses.filter((r) => r.status !== 201)) expectProblem(r, 409, 'resource_conflict');
  });

  it('patches tank size and mpg, deactivates and reactivates, filtering lists by status', async () => {
    const ref = `LIFE-${unique()}`;
    const vehicle = (await prod.post('/v1/vehicles', { ...company, body: { external_ref: ref } })).json;
    const patched = await prod.patch(`/v1/vehicles/${vehicle.id}`, {
      ...company,
      body: { tank_size_gallons: 300, estimated_mpg: 7.25, name: null },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({ tank_size_gallons: 300, estimated_mpg: 7.25, name: null });

    const deactivated = await prod.post(`/v1/vehicles/ext:${ref}/deactivate`, company);
    expect(deactivated.status, deactivated.text).toBe(200);
    expect(deactivated.json.status).toBe('inactive');
    const inactiveIds = await allVehicleIds('inactive');
    expect(inactiveIds).toContain(vehicle.id);
    expect(await allVehicleIds('active')).not.toContain(vehicle.id);

    const reactivated = await prod.post(`/v1/vehicles/${vehicle.id}/reactivate`, company);
    expect(reactivated.json.status).toBe('active');
    expect(await allVehicleIds('active')).toContain(vehicle.id);
  });

  it('answers 400 invalid_public_id to a bare external_ref in the path, suggesting ext:', async () => {
    const response = await prod.get('/v1/vehicles/TRUCK-042', company);
    expectProblem(response, 400, 'invalid_public_id');
    expect(response.json.detail).toBe('id must be a veh_ id or ext:<external_ref>.');
    expect(response.json.hint).toBe(
      'to name a vehicle by its external_ref, prefix it with ext: (ext:TRUCK-042)',
    );
  });

  it("answers 404 for another fleet's vehicle, by id and by ext:", async () => {
    const [granted] = credentials.fleets.partner_granted;
    const ref = `OTHER-${unique()}`;
    const theirs = await prod.post('/v1/vehicles', {
      ...partner,
      fleet: granted,
      body: { external_ref: ref },
    });
    expect(theirs.status).toBe(201);
    expectProblem(await prod.get(`/v1/vehicles/${theirs.json.id}`, company), 404, 'resource_not_found');
    expectProblem(await prod.get(`/v1/vehicles/ext:${ref}`, company), 404, 'resource_not_found');
    expectProblem(
      await prod.patch(`/v1/vehicles/${theirs.json.id}`, { ...company, body: { name: 'mine now' } }),
      404,
      'resource_not_found',
    );
  });
});

async function allVehicleIds(status: 'active' | 'inactive'): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await prod.get('/v1/vehicles', { ...company, query: { status, limit: 100, cursor } });
    expect(page.status, page.text).toBe(200);
    ids.push(...page.json.data.map((v: { id: string }) => v.id));
    cursor = page.json.next_cursor ?? undefined;
  } while (cursor);
  return ids;
}
