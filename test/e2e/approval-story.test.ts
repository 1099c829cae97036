import { describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';

// The whole production-access approval story over HTTP, as a company meets it: the operator creates the
// company, its owner's test key asks for production access, is denied, asks again, is approved
// with a plan, creates a live key from the sandbox URL, uses it on production, rotates it, and
// then the operator revokes access: live keys answer 401 key_revoked with the reason, the test
// key keeps working. Needs the operator token, so it runs where the credentials file has one.

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const sandbox = api(credentials.sandbox_base_url);
const operator = { key: credentials.operator_token };
const access = {
  use_case: 'Fuel guidance and savings reports for our regional trucks',
  expected_vehicles: 40,
  contact_email: 'it@prairie.example',
};

describe('the approval story, operator to production and back', () => {
  it('deny → ask again → approve → live key on production → rotate → revoke access', async () => {
    // The operator onboards the company: its account, sandbox twin and first owner test key.
    const onboarded = await prod.post<{
      account: { id: string; sandbox_fleet_id: string };
      key: { secret: string };
    }>('/admin/v1/companies', {
      ...operator,
      body: {
        name: `Prairie Haulers ${Date.now()}`,
        timezone: 'America/Chicago',
        contact_email: 'ops@prairie.example',
      },
    });
    expect(onboarded.status, onboarded.text).toBe(201);
    const owner = { key: onboarded.json.key.secret };
    const twin = await sandbox.get<{ data: { external_ref: string }[] }>('/v1/vehicles', owner);
    expect(twin.json.data.map((v) => v.external_ref).sort()).toEqual(['sim-1', 'sim-2', 'sim-3']);

    // No live key before approval.
    const early = await sandbox.post('/v1/keys', {
      ...owner,
      body: { owner_type: 'company', name: 'too early', scopes: ['vehicles:manage'], mode: 'live' },
    });
    expectProblem(early, 403, 'production_access_required');
    expect(early.text).toContain('POST /v1/production-access');

    // Asked, denied, asked again.
    const first = await sandbox.post<{ id: string; status: string }>('/v1/production-access', {
      ...owner,
      body: access,
    });
    expect(first.status, first.text).toBe(202);
    expect(first.json.status).toBe('pending');
    const pending = await prod.get<{ data: { id: string }[] }>('/admin/v1/production-access', {
      ...operator,
      query: { status: 'pending', limit: 100 },
    });
    expect(pending.json.data.map((r) => r.id)).toContain(first.json.id);
    const denied = await prod.post(`/admin/v1/production-access/${first.json.id}/deny`, {
      ...operator,
      body: { reason: 'Tell us which telematics provider you use' },
    });
    expect(denied.status, denied.text).toBe(200);
    expect((await sandbox.get('/v1/production-access', owner)).json).toMatchObject({
      status: 'denied',
      reason: 'Tell us which telematics provider you use',
    });
    const second = await sandbox.post<{ id: string }>('/v1/production-access', {
      ...owner,
      body: { ...access, use_case: `${access.use_case}; telematics by Samsara` },
    });
    expect(second.status, second.text).toBe(202);

    // Approved with a plan: the live fleet exists, and the owner creates a live key on the sandbox URL.
    const approved = await prod.post(`/admin/v1/production-access/${second.json.id}/approve`, {
      ...operator,
      body: { plan: 'growth' },
    });
    expect(approved.status, approved.text).toBe(200);
    const status = await sandbox.get<{ status: string; plan: string; live_fleet_id: string }>(
      '/v1/production-access',
      owner,
    );
    expect(status.json).toMatchObject({ status: 'approved', plan: 'growth' });
    const live = await sandbox.post<{ id: string; secret: string }>('/v1/keys', {
      ...owner,
      body: { owner_type: 'company', name: 'dispatch backend', scopes: ['vehicles:manage'], mode: 'live' },
    });
    expect(live.status, live.text).toBe(201);
    const me = await prod.get<{ fleet_id: string; plan: { name: string } }>('/v1/me', {
      key: live.json.secret,
    });
    expect(me.json).toMatchObject({ fleet_id: status.json.live_fleet_id, plan: { name: 'growth' } });
    const truck = await prod.post('/v1/vehicles', {
      key: live.json.secret,
      body: { external_ref: 'PRAIRIE-1', tank_size_gallons: 200, estimated_mpg: 6.5 },
    });
    expect(truck.status, truck.text).toBe(201);

    // Rotated: the old secret keeps working for its grace, then stops when told to.
    const rotated = await sandbox.post<{ secret: string }>(`/v1/keys/${live.json.id}/rotate`, owner);
    expect(rotated.status, rotated.text).toBe(200);
    expect((await prod.get('/v1/vehicles', { key: live.json.secret })).status).toBe(200);
    const again = await sandbox.post<{ secret: string }>(`/v1/keys/${live.json.id}/rotate`, {
      ...owner,
      body: { expire_previous: true },
    });
    expectProblem(await prod.get('/v1/vehicles', { key: live.json.secret }), 401, 'key_revoked');
    expectProblem(await prod.get('/v1/vehicles', { key: rotated.json.secret }), 401, 'key_revoked');
    expect((await prod.get('/v1/vehicles', { key: again.json.secret })).status).toBe(200);

    // The operator revokes production access: live keys 401 with the reason; the test key works.
    const revoked = await prod.post(`/admin/v1/production-access/${second.json.id}/revoke`, {
      ...operator,
      body: { reason: 'Unpaid invoices since September' },
    });
    expect(revoked.status, revoked.text).toBe(200);
    const refused = await prod.get('/v1/vehicles', { key: again.json.secret });
    expectProblem(refused, 401, 'key_revoked');
    expect((refused.json as { detail: string }).detail).toContain('Unpaid invoices since September');
    expect((await sandbox.get('/v1/vehicles', owner)).status).toBe(200);
    expect((await sandbox.get('/v1/production-access', owner)).json).toMatchObject({
      status: 'revoked',
      reason: 'Unpaid invoices since September',
    });
    expectProblem(
      await sandbox.post('/v1/keys', {
        ...owner,
        body: { owner_type: 'company', name: 'after revocation', scopes: ['vehicles:manage'], mode: 'live' },
      }),
      403,
      'production_access_required',
    );

    // The audit trail tells the story, newest first.
    const audit = await prod.get<{ data: { action: string }[] }>('/admin/v1/audit', {
      ...operator,
      query: { account_id: onboarded.json.account.id, limit: 100 },
    });
    const actions = audit.json.data.map((entry) => entry.action);
    for (const action of [
      'company.created',
      'production_access.requested',
      'production_access.denied',
      'production_access.approved',
      'key.created',
      'key.rotated',
      'production_access.revoked',
    ]) {
      expect(actions).toContain(action);
    }
  });
});
