import { describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const sandbox = api(credentials.sandbox_base_url);
const { keys } = credentials;
const owner = { key: keys.company_live };

interface IssuedKey {
  id: string;
  secret: string;
  mode: string;
  scopes: string[];
  status: string;
  previous_secret_expires_at: string | null;
}

async function createKey(body: Record<string, unknown>, by = owner, on = prod) {
  const response = await on.post<IssuedKey>('/v1/keys', { ...by, body });
  expect(response.status, response.text).toBe(201);
  return response.json;
}

describe('owner keys over HTTP (keys:manage)', () => {
  it('creates a test key that works on the sandbox at once, lists it without a secret, then revokes it', async () => {
    const created = await createKey({
      owner_type: 'company',
      name: 'e2e sandbox reader',
      scopes: ['vehicles:manage'],
      mode: 'test',
    });
    expect(created).toMatchObject({ mode: 'test', scopes: ['vehicles:manage'], status: 'active' });
    expect(created.secret).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);

    expect((await sandbox.get('/v1/vehicles', { key: created.secret })).status).toBe(200);
    expectProblem(await sandbox.get('/v1/trips', { key: created.secret }), 403, 'insufficient_scope');

    const listed = await prod.get<{ data: { id: string }[]; next_cursor: string | null }>('/v1/keys', {
      ...owner,
      query: { limit: 100 },
    });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(created.secret);
    expect(listed.text).not.toContain('"secret"');

    const revoked = await prod.post(`/v1/keys/${created.id}/revoke`, {
      ...owner,
      body: { reason: 'e2e done' },
    });
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({ status: 'revoked', revoked_reason: 'e2e done' });
    const refused = await sandbox.get('/v1/vehicles', { key: created.secret });
    expectProblem(refused, 401, 'key_revoked');
    expect((refused.json as { detail: string }).detail).toContain('e2e done');
  });

  it('rotates: both secrets work, then expire_previous retires the replaced one; a revoked key is 409', async () => {
    const created = await createKey({
      owner_type: 'company',
      name: 'e2e rotated',
      scopes: ['vehicles:manage'],
      mode: 'live',
    });
    const first = created.secret;

    const rotated = await prod.post<IssuedKey>(`/v1/keys/${created.id}/rotate`, owner);
    expect(rotated.status, rotated.text).toBe(200);
    const second = rotated.json.secret;
    expect(second).not.toBe(first);
    expect(Date.parse(rotated.json.previous_secret_expires_at ?? '') - Date.now()).toBeGreaterThan(
      23 * 3_600_000,
    );
    expect((await prod.get('/v1/vehicles', { key: first })).status).toBe(200);
    expect((await prod.get('/v1/vehicles', { key: second })).status).toBe(200);

    const again = await prod.post<IssuedKey>(`/v1/keys/${created.id}/rotate`, {
      ...owner,
      body: { expire_previous: true },
    });
    expect(again.status).toBe(200);
    expectProblem(await prod.get('/v1/vehicles', { key: first }), 401, 'key_revoked');
    expectProblem(await prod.get('/v1/vehicles', { key: second }), 401, 'key_revoked');
    expect((await prod.get('/v1/vehicles', { key: again.json.secret })).status).toBe(200);

    await prod.post(`/v1/keys/${created.id}/revoke`, owner);
    expectProblem(await prod.post(`/v1/keys/${created.id}/rotate`, owner), 409, 'resource_conflict');
  });

  it('refuses what a key may not grant: a missing owner_type (422 naming it), a scope the creator lacks, fleets:manage', async () => {
    const missing = await prod.post('/v1/keys', {
      ...owner,
      body: { name: 'x', scopes: ['guidance:read'], mode: 'test' },
    });
    expectProblem(missing, 422, 'validation_failed');
    expect(missing.text).toContain('owner_type');

    const partnerOnly = await prod.post('/v1/keys', {
      ...owner,
      body: { owner_type: 'company', name: 'x', scopes: ['fleets:manage'], mode: 'test' },
    });
    expectProblem(partnerOnly, 422, 'validation_failed');

    const wrongOwner = await prod.post('/v1/keys', {
      ...owner,
      body: { owner_type: 'partner', name: 'x', scopes: ['guidance:read'], mode: 'test' },
    });
    expectProblem(wrongOwner, 422, 'validation_failed');
    expect(wrongOwner.text).toContain('owner_type');

    // A narrow owner key (keys:manage + guidance:read) cannot mint a broader one.
    const narrow = await createKey({
      owner_type: 'company',
      name: 'e2e narrow owner',
      scopes: ['keys:manage', 'guidance:read'],
      mode: 'live',
    });
    const escalation = await prod.post('/v1/keys', {
      key: narrow.secret,
      body: { owner_type: 'company', name: 'x', scopes: ['webhooks:manage'], mode: 'test' },
    });
    expectProblem(escalation, 403, 'insufficient_scope');
    await prod.post(`/v1/keys/${narrow.id}/revoke`, owner);

    expectProblem(await prod.get('/v1/keys', { key: keys.company_readonly }), 403, 'insufficient_scope');
  });

  it('manages the same account from the sandbox: a test owner key creates a live key that works on production', async () => {
    const live = await createKey(
      { owner_type: 'company', name: 'e2e live from sandbox', scopes: ['vehicles:manage'], mode: 'live' },
      { key: keys.company_test },
      sandbox,
    );
    expect(live.secret).toMatch(/^svc_live_/);
    expect((await prod.get('/v1/vehicles', { key: live.secret })).status).toBe(200);
    expectProblem(await sandbox.get('/v1/vehicles', { key: live.secret }), 401, 'invalid_api_key');
    await prod.post(`/v1/keys/${live.id}/revoke`, owner);
  });

  it('a key id of another account is 404, and a malformed one 400', async () => {
    const own = await createKey({
      owner_type: 'company',
      name: 'e2e other account',
      scopes: ['guidance:read'],
      mode: 'test',
    });
    expectProblem(
      await prod.post(`/v1/keys/${own.id}/revoke`, { key: keys.partner_live }),
      404,
      'resource_not_found',
    );
    expectProblem(await prod.post('/v1/keys/flt_123/rotate', owner), 400, 'invalid_public_id');
    await prod.post(`/v1/keys/${own.id}/revoke`, owner);
  });
});

describe('production access over HTTP', () => {
  it('the demo company is approved: a new request is 409, the status names the plan and the live fleet', async () => {
    const status = await prod.get('/v1/production-access', owner);
    expect(status.status, status.text).toBe(200);
    expect(status.json).toMatchObject({ object: 'production_access', status: 'approved' });
    expect((status.json as { live_fleet_id: string }).live_fleet_id).toBe(credentials.fleets.company);

    const again = await prod.post('/v1/production-access', {
      ...owner,
      body: {
        use_case: 'More trucks for the winter season',
        expected_vehicles: 10,
        contact_email: 'ops@example.com',
      },
    });
    expectProblem(again, 409, 'resource_conflict');
  });

  it('a partner asks for nothing (409), and a bad body is 422 naming the fields', async () => {
    const partner = await prod.post('/v1/production-access', {
      key: keys.partner_live,
      body: {
        use_case: 'We are a telematics partner',
        expected_vehicles: 10,
        contact_email: 'ops@example.com',
      },
    });
    expectProblem(partner, 409, 'resource_conflict');
    const bad = await prod.post('/v1/production-access', { ...owner, body: { expected_vehicles: 0 } });
    expectProblem(bad, 422, 'validation_failed');
    for (const field of ['use_case', 'expected_vehicles', 'contact_email']) expect(bad.text).toContain(field);
  });
});
