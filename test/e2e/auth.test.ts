import { describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const sandbox = api(credentials.sandbox_base_url);
const { keys, fleets } = credentials;

describe('authentication failures', () => {
  it('401 missing_api_key without a key', async () => {
    expectProblem(await prod.get('/v1/vehicles'), 401, 'missing_api_key');
  });

  it('401 missing_api_key for a non-bearer Authorization header', async () => {
    const response = await prod.get('/v1/vehicles', {
      headers: { authorization: `Basic ${keys.company_live}` },
    });
    expectProblem(response, 401, 'missing_api_key');
  });

  it('401 invalid_api_key for an unknown key of the right shape', async () => {
    expectProblem(
      await prod.get('/v1/vehicles', { key: `svc_live_${'x'.repeat(32)}` }),
      401,
      'invalid_api_key',
    );
  });

  it('401 invalid_api_key for garbage', async () => {
    expectProblem(await prod.get('/v1/vehicles', { key: 'hunter2' }), 401, 'invalid_api_key');
  });

  it('401 key_revoked for a revoked key', async () => {
    expectProblem(await prod.get('/v1/vehicles', { key: keys.company_revoked }), 401, 'key_revoked');
  });

  it('403 key_suspended for a suspended key', async () => {
    expectProblem(await prod.get('/v1/vehicles', { key: keys.company_suspended }), 403, 'key_suspended');
  });

  it('403 sandbox_key_on_production for a test key on the prod stage', async () => {
    expectProblem(await prod.get('/v1/me', { key: keys.company_test }), 403, 'sandbox_key_on_production');
  });

  it('401 invalid_api_key for a live key on the sandbox stage, with a hint to use the production URL', async () => {
    const response = await sandbox.get('/v1/me', { key: keys.company_live });
    expectProblem(response, 401, 'invalid_api_key');
    expect(response.json.hint).toMatch(/production/);
  });

  it('403 insufficient_scope naming the scope in detail and required_scope', async () => {
    const response = await prod.get('/v1/vehicles', { key: keys.company_readonly });
    expectProblem(response, 403, 'insufficient_scope');
    expect(response.json.required_scope).toBe('vehicles:manage');
    expect(response.json.detail).toContain('vehicles:manage');
  });

  it('403 insufficient_scope for a company key on partner provisioning', async () => {
    const response = await prod.get('/v1/fleets', { key: keys.company_live });
    expectProblem(response, 403, 'insufficient_scope');
    expect(response.json.required_scope).toBe('fleets:manage');
  });

  it('400 fleet_header_required for a partner key on a fleet-scoped call without SVC-Fleet', async () => {
    expectProblem(await prod.get('/v1/vehicles', { key: keys.partner_live }), 400, 'fleet_header_required');
  });

  it('403 fleet_scope_mismatch for a partner key naming a fleet it was not granted', async () => {
    const response = await prod.get('/v1/vehicles', { key: keys.partner_live, fleet: fleets.company });
    expectProblem(response, 403, 'fleet_scope_mismatch');
  });

  it('400 invalid_public_id for a malformed SVC-Fleet header', async () => {
    const response = await prod.get('/v1/vehicles', { key: keys.partner_live, fleet: 'fleet-42' });
    expectProblem(response, 400, 'invalid_public_id');
  });

  it('403 fleet_scope_mismatch for a company key naming another fleet', async () => {
    const [granted] = fleets.partner_granted;
    const response = await prod.get('/v1/vehicles', { key: keys.company_live, fleet: granted });
    expectProblem(response, 403, 'fleet_scope_mismatch');
  });

  it('lets a partner act on a granted fleet', async () => {
    const [granted] = fleets.partner_granted;
    const response = await prod.get('/v1/vehicles', { key: keys.partner_live, fleet: granted });
    expect(response.status, response.text).toBe(200);
  });
});

describe('rate-limit headers', () => {
  it('are on every authenticated response, success or problem', async () => {
    for (const response of [
      await prod.get('/v1/me', { key: keys.company_live }),
      await prod.get('/v1/vehicles', { key: keys.company_readonly }),
    ]) {
      for (const name of [
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'RateLimit-Policy',
        'RateLimit',
        'X-RateLimit-Reset',
      ]) {
        expect(response.headers.get(name), `${name} on ${response.status}`).not.toBeNull();
      }
      const reset = Number(response.headers.get('RateLimit-Reset'));
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
  });
});

describe('GET /v1/me', () => {
  it('describes a company key: no partner, its fleet, scopes and plan with usage by family', async () => {
    const response = await prod.get('/v1/me', { key: keys.company_live });
    expect(response.status).toBe(200);
    expect(response.json.partner).toBeNull();
    expect(response.json.fleet_id).toBe(fleets.company);
    expect(response.json.scopes).toContain('vehicles:manage');
    expect(response.json.scopes).not.toContain('fleets:manage');
    expect(Number.isInteger(response.json.plan.rate_limit_per_min)).toBe(true);
    expect(response.json.plan.monthly_quota).toBeTypeOf('object');
    expect(response.json.plan.used_this_month).toBeTypeOf('object');
  });

  it('describes a partner key with its partner and fleets:manage', async () => {
    const response = await prod.get('/v1/me', { key: keys.partner_live });
    expect(response.json.partner).toMatchObject({ id: expect.stringMatching(/^ptr_/) });
    expect(response.json.scopes).toContain('fleets:manage');
  });

  it('works for a key without any scope-bearing access (read-only key)', async () => {
    const response = await prod.get('/v1/me', { key: keys.company_readonly });
    expect(response.status).toBe(200);
    expect(response.json.scopes).toEqual(['guidance:read']);
  });

  it('counts vehicle calls in used_this_month', async () => {
    const before =
      (await prod.get('/v1/me', { key: keys.company_live })).json.plan.used_this_month.vehicles ?? 0;
    await prod.get('/v1/vehicles', { key: keys.company_live });
    await prod.get('/v1/vehicles', { key: keys.company_live });
    const after = (await prod.get('/v1/me', { key: keys.company_live })).json.plan.used_this_month.vehicles;
    expect(after).toBeGreaterThanOrEqual(before + 2);
  });
});
