import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';

// The operator API over HTTP against the local stack: operator token auth (IAM in AWS is covered by
// the CDK tests), every endpoint with its success and failure codes, production only.

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const sandbox = api(credentials.sandbox_base_url);
const operator = credentials.operator_token;
const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const admin = {
  get: (path: string, query?: Record<string, string | number | undefined>) =>
    prod.get(path, { key: operator, query }),
  post: (path: string, body?: unknown) => prod.post(path, { key: operator, body }),
  put: (path: string, body: unknown) => prod.call('PUT', path, { key: operator, body }),
};

const UNKNOWN = {
  key: 'key_01JD7ZK3M4N5P6Q7R8S9T0V1W2',
  company: 'cmp_01JD7ZK3M4N5P6Q7R8S9T0V1W2',
  request: 'par_01JD7ZK3M4N5P6Q7R8S9T0V1W2',
};

const planBody = {
  rate_limit_per_min: 300,
  monthly_quota: { stations: 1000, locations: 5000 },
  station_query_budget: 20_000,
  max_station_results: 15,
  enumeration_guard: { max_distinct_cells: 200, lattice_min_cells: 50 },
};

describe('operator authentication', () => {
  it('401 missing_api_key without credentials', async () => {
    expectProblem(await prod.get('/admin/v1/plans'), 401, 'missing_api_key');
  });

  it('401 invalid_api_key for an unknown operator token', async () => {
    expectProblem(await prod.get('/admin/v1/plans', { key: 'op_not-the-token' }), 401, 'invalid_api_key');
  });

  it('403 insufficient_scope for an API key, naming the operator credentials it needs', async () => {
    const response = await prod.get('/admin/v1/plans', { key: credentials.keys.company_live });
    expectProblem(response, 403, 'insufficient_scope');
    expect(response.json.detail).toMatch(/API keys cannot call the operator API/);
    expect(response.json.required_scope).toBe('operator');
  });

  it('the sandbox stage has no operator API: 404 even with the operator token', async () => {
    expectProblem(await sandbox.get('/admin/v1/plans', { key: operator }), 404, 'resource_not_found');
    expectProblem(
      await sandbox.post('/admin/v1/companies', {
        key: operator,
        body: { name: 'X', timezone: 'UTC', contact_email: 'x@example.com' },
      }),
      404,
      'resource_not_found',
    );
  });
});

describe('GET /admin/v1/openapi.json', () => {
  it('serves the operator document with this stage as its server; the public document lists no admin path', async () => {
    const response = await admin.get('/admin/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.json.servers[0].url).toBe(credentials.base_url.replace(/\/+$/, ''));
    expect(Object.keys(response.json.paths)).toContain('/admin/v1/production-access/{id}/approve');
    expect(Object.keys(response.json.paths).every((path: string) => path.startsWith('/admin/v1/'))).toBe(
      true,
    );
    const publicDocument = await prod.get('/v1/openapi.json');
    expect(Object.keys(publicDocument.json.paths).some((path) => path.startsWith('/admin'))).toBe(false);
  });
});

describe('plans', () => {
  const name = `e2e-${unique}`;

  it('PUT creates a plan, GET lists it with the effective guard thresholds', async () => {
    const put = await admin.put(`/admin/v1/plans/${name}`, planBody);
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({ object: 'plan', name, max_station_results: 15 });
    const list = await admin.get('/admin/v1/plans');
    expect(list.status).toBe(200);
    const listed = list.json.data.find((plan: { name: string }) => plan.name === name);
    expect(listed).toMatchObject({
      rate_limit_per_min: 300,
      monthly_quota: { stations: 1000, locations: 5000 },
      station_query_budget: 20_000,
      enumeration_guard: { max_distinct_cells: 200, lattice_min_cells: 50, window_minutes: 15 },
    });
    expect(list.json.data.map((plan: { name: string }) => plan.name)).toContain('sandbox');
  });

  it('422 for bad numbers, unknown families and out-of-range guard thresholds, one field each', async () => {
    const response = await admin.put(`/admin/v1/plans/${name}`, {
      ...planBody,
      rate_limit_per_min: 0,
      monthly_quota: { stations: -1, teleport: 5 },
      max_station_results: 26,
      enumeration_guard: { max_distinct_cells: 601 },
    });
    expectProblem(response, 422, 'validation_failed');
    const fields = response.json.errors.map((error: { field: string }) => error.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'rate_limit_per_min',
        'monthly_quota.stations',
        'monthly_quota.teleport',
        'max_station_results',
        'enumeration_guard.max_distinct_cells',
      ]),
    );
  });

  it('422 for a plan name that cannot be a plan', async () => {
    const response = await admin.put('/admin/v1/plans/Not%20A%20Plan', planBody);
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors[0].field).toBe('name');
  });
});

describe('onboarding', () => {
  it('POST /admin/v1/partners: the partner and its live owner key, which works on production', async () => {
    const response = await admin.post('/admin/v1/partners', {
      name: `Partner ${unique}`,
      contact_email: 'ops@partner.example',
    });
    expect(response.status, response.text).toBe(201);
    const { account, key } = response.json;
    expect(account).toMatchObject({ object: 'partner', plan: 'starter', sandbox_fleet_id: null });
    expect(account.id).toMatch(/^ptr_/);
    expect(key).toMatchObject({
      object: 'api_key',
      owner_type: 'partner',
      mode: 'live',
      account_id: account.id,
    });
    expect(key.scopes).toEqual(expect.arrayContaining(['keys:manage', 'fleets:manage']));
    expect(key.secret).toMatch(/^svc_live_/);
    const me = await prod.get('/v1/me', { key: key.secret });
    expect(me.status, me.text).toBe(200);
    expect(me.json.account).toMatchObject({ id: account.id, type: 'partner' });
  });

  it('POST /admin/v1/companies: the company, its sandbox twin and an owner test key acting on it', async () => {
    const response = await admin.post('/admin/v1/companies', {
      name: `Company ${unique}`,
      timezone: 'america/chicago',
      contact_email: 'owner@company.example',
    });
    expect(response.status, response.text).toBe(201);
    const { account, key } = response.json;
    expect(account).toMatchObject({
      object: 'company',
      plan: 'sandbox',
      timezone: 'America/Chicago',
      live_fleet_id: null,
      production_access: { status: 'none' },
    });
    expect(account.sandbox_fleet_id).toMatch(/^flt_/);
    expect(key).toMatchObject({ mode: 'test', fleet_id: account.sandbox_fleet_id });
    expect(key.scopes).toContain('keys:manage');
    expect(key.scopes).not.toContain('fleets:manage');
    const me = await sandbox.get('/v1/me', { key: key.secret });
    expect(me.status, me.text).toBe(200);
    expect(me.json.fleet_id).toBe(account.sandbox_fleet_id);
    // The twin is on the sandbox stage, not on production.
    const vehicles = await sandbox.get('/v1/vehicles', { key: key.secret });
    expect(vehicles.status, vehicles.text).toBe(200);
  });

  it('422 for a time zone that is not IANA and a malformed email, naming both fields', async () => {
    const response = await admin.post('/admin/v1/companies', {
      name: 'Bad',
      timezone: 'Mars/Olympus',
      contact_email: 'not-an-email',
    });
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors.map((error: { field: string }) => error.field).sort()).toEqual([
      'contact_email',
      'timezone',
    ]);
  });
});

describe('keys, account plans and the audit trail', () => {
  let companyId: string;
  let ownerSecret: string;

  beforeAll(async () => {
    const response = await admin.post('/admin/v1/companies', {
      name: `Keys ${unique}`,
      timezone: 'UTC',
      contact_email: 'keys@company.example',
    });
    expect(response.status, response.text).toBe(201);
    companyId = response.json.account.id;
    ownerSecret = response.json.key.secret;
  });

  const createKey = (overrides: Record<string, unknown> = {}) =>
    admin.post('/admin/v1/keys', {
      owner_type: 'company',
      company_id: companyId,
      plan: 'sandbox',
      scopes: ['vehicles:manage'],
      name: 'Dispatch board',
      mode: 'test',
      ...overrides,
    });

  it('POST /admin/v1/keys creates a key on the named plan, its secret once', async () => {
    const response = await createKey();
    expect(response.status, response.text).toBe(201);
    expect(response.json).toMatchObject({ plan: 'sandbox', scopes: ['vehicles:manage'], status: 'active' });
    expect(response.json.secret).toMatch(/^svc_test_/);
  });

  it('403 production_access_required for a live key of a company without approved access', async () => {
    expectProblem(await createKey({ mode: 'live' }), 403, 'production_access_required');
  });

  it('422 for fleets:manage on a company key, an unknown plan, and a missing company_id', async () => {
    const partnerScope = await createKey({ scopes: ['fleets:manage'] });
    expectProblem(partnerScope, 422, 'validation_failed');
    expect(partnerScope.json.errors[0].field).toBe('scopes');
    const unknownPlan = await createKey({ plan: 'no-such-plan' });
    expectProblem(unknownPlan, 422, 'validation_failed');
    expect(unknownPlan.json.errors[0].field).toBe('plan');
    const missing = await createKey({ company_id: undefined });
    expectProblem(missing, 422, 'validation_failed');
    expect(missing.json.errors[0].field).toBe('company_id');
  });

  it('404 for a company that does not exist', async () => {
    expectProblem(await createKey({ company_id: UNKNOWN.company }), 404, 'resource_not_found');
  });

  it('suspend → 403 key_suspended, unsuspend → works, revoke → 401 key_revoked; a revoked key is final (409)', async () => {
    const created = await createKey({ scopes: ['vehicles:manage'] });
    const { id, secret } = created.json;

    const suspended = await admin.post(`/admin/v1/keys/${id}/suspend`);
    expect(suspended.status, suspended.text).toBe(200);
    expect(suspended.json.status).toBe('suspended');
    expectProblem(await sandbox.get('/v1/me', { key: secret }), 403, 'key_suspended');

    const reinstated = await admin.post(`/admin/v1/keys/${id}/unsuspend`);
    expect(reinstated.json.status).toBe('active');
    expect((await sandbox.get('/v1/me', { key: secret })).status).toBe(200);

    const revoked = await admin.post(`/admin/v1/keys/${id}/revoke`, { reason: 'leaked in a ticket' });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.json).toMatchObject({ status: 'revoked', revoked_reason: 'leaked in a ticket' });
    const refused = await sandbox.get('/v1/me', { key: secret });
    expectProblem(refused, 401, 'key_revoked');
    expect(refused.json.detail).toContain('leaked in a ticket');

    expectProblem(await admin.post(`/admin/v1/keys/${id}/unsuspend`), 409, 'resource_conflict');
  });

  it('404 for an unknown key id, 400 for a malformed one, 422 for a revocation without a reason', async () => {
    expectProblem(await admin.post(`/admin/v1/keys/${UNKNOWN.key}/suspend`), 404, 'resource_not_found');
    expectProblem(await admin.post('/admin/v1/keys/flt_nope/suspend'), 400, 'invalid_public_id');
    const noReason = await admin.post(`/admin/v1/keys/${UNKNOWN.key}/revoke`, {});
    expectProblem(noReason, 422, 'validation_failed');
    expect(noReason.json.errors[0].field).toBe('reason');
  });

  it('PUT /admin/v1/accounts/{id}/plan moves the account and every key onto the plan', async () => {
    const name = `moved-${unique}`;
    expect((await admin.put(`/admin/v1/plans/${name}`, planBody)).status).toBe(200);
    const response = await admin.put(`/admin/v1/accounts/${companyId}/plan`, { plan: name });
    expect(response.status, response.text).toBe(200);
    expect(response.json.account.plan).toBe(name);
    expect(response.json.keys_moved).toBeGreaterThanOrEqual(2);
    const me = await sandbox.get('/v1/me', { key: ownerSecret });
    expect(me.json.plan.name).toBe(name);
    expect(me.json.plan.price_query_cap).toBe(15);

    expectProblem(
      await admin.put(`/admin/v1/accounts/${UNKNOWN.company}/plan`, { plan: name }),
      404,
      'resource_not_found',
    );
    const unknownPlan = await admin.put(`/admin/v1/accounts/${companyId}/plan`, { plan: 'no-such-plan' });
    expectProblem(unknownPlan, 422, 'validation_failed');
  });

  it('GET /admin/v1/audit lists what was done to the account, newest first, with who and why', async () => {
    const response = await admin.get('/admin/v1/audit', { account_id: companyId, limit: 100 });
    expect(response.status, response.text).toBe(200);
    const entries = response.json.data as {
      action: string;
      at: string;
      reason: string | null;
      actor: { type: string };
    }[];
    const actions = entries.map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'company.created',
        'key.created',
        'key.suspended',
        'key.unsuspended',
        'key.revoked',
        'account.plan_set',
      ]),
    );
    expect(entries.find((entry) => entry.action === 'key.revoked')?.reason).toBe('leaked in a ticket');
    expect(entries.every((entry) => entry.actor.type === 'operator')).toBe(true);
    const times = entries.map((entry) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('pages the audit trail with a cursor', async () => {
    const first = await admin.get('/admin/v1/audit', { account_id: companyId, limit: 2 });
    expect(first.json.data).toHaveLength(2);
    expect(first.json.next_cursor).toEqual(expect.any(String));
    const second = await admin.get('/admin/v1/audit', {
      account_id: companyId,
      limit: 2,
      cursor: first.json.next_cursor,
    });
    expect(second.status).toBe(200);
    expect(second.json.data[0].id).not.toBe(first.json.data[0].id);
    expectProblem(await admin.get('/admin/v1/audit', { cursor: 'garbage' }), 400, 'invalid_cursor');
  });
});

describe('production access (operator side)', () => {
  it('lists pending requests by default, and refuses an unknown status', async () => {
    const pending = await admin.get('/admin/v1/production-access');
    expect(pending.status, pending.text).toBe(200);
    expect(pending.json.data.every((request: { status: string }) => request.status === 'pending')).toBe(true);
    expectProblem(
      await admin.get('/admin/v1/production-access', { status: 'maybe' }),
      422,
      'validation_failed',
    );
  });

  it('404 for an unknown request, 422 for an approval without a plan or a denial without a reason', async () => {
    expectProblem(
      await admin.post(`/admin/v1/production-access/${UNKNOWN.request}/approve`, { plan: 'growth' }),
      404,
      'resource_not_found',
    );
    const noPlan = await admin.post(`/admin/v1/production-access/${UNKNOWN.request}/approve`, {});
    expectProblem(noPlan, 422, 'validation_failed');
    expect(noPlan.json.errors[0].field).toBe('plan');
    const noReason = await admin.post(`/admin/v1/production-access/${UNKNOWN.request}/deny`, {});
    expectProblem(noReason, 422, 'validation_failed');
    expect(noReason.json.errors[0].field).toBe('reason');
  });
});

/** The quarter `ahead` quarters after `quarter` (`YYYY-Qn`). */
function quarterAfter(quarter: string, ahead: number): string {
  const [year, n] = quarter.split('-Q').map(Number) as [number, number];
  const index = year * 4 + n - 1 + ahead;
  return `${Math.floor(index / 4)}-Q${(index % 4) + 1}`;
}

describe('fuel tax rates', () => {
  // Pennsylvania's shipped rate, stored again for the farthest quarter allowed: the row is the
  // operator's, and no price the other tests see changes.
  const PA = { usd_per_gallon: 0.741 };

  it('GET lists the 49 rates in force with their source; PUT schedules one; GET shows it upcoming', async () => {
    const before = await admin.get('/admin/v1/fuel-tax-rates');
    expect(before.status, before.text).toBe(200);
    expect(before.json).toMatchObject({
      object: 'fuel_tax_rates',
      quarter: expect.stringMatching(/^\d{4}-Q[1-4]$/),
    });
    expect(before.json.in_force).toHaveLength(49);
    expect(before.json.in_force.find((rate: { state: string }) => rate.state === 'PA')).toMatchObject({
      object: 'fuel_tax_rate',
      usd_per_gallon: 0.741,
    });
    const later = quarterAfter(before.json.quarter, 4);

    const put = await admin.put('/admin/v1/fuel-tax-rates/pa', { ...PA, effective_from: later });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({
      object: 'fuel_tax_rate',
      state: 'PA',
      usd_per_gallon: 0.741,
      effective_from: later,
      source: 'operator',
      updated_by: 'token:Local operator',
    });
    const after = await admin.get('/admin/v1/fuel-tax-rates');
    expect(after.json.upcoming).toContainEqual(put.json);
    const audit = await admin.get('/admin/v1/audit');
    expect(audit.json.data).toContainEqual(
      expect.objectContaining({
        action: 'fuel_tax_rate.set',
        target: { type: 'fuel_tax_rate', id: `PA/${later}` },
      }),
    );
  });

  it('422 for a quarter more than 4 ahead, a state outside the table and a rate out of range', async () => {
    const { quarter } = (await admin.get('/admin/v1/fuel-tax-rates')).json;
    const tooFar = await admin.put('/admin/v1/fuel-tax-rates/PA', {
      ...PA,
      effective_from: quarterAfter(quarter, 5),
    });
    expectProblem(tooFar, 422, 'validation_failed');
    expect(tooFar.json.errors).toEqual([
      {
        field: 'effective_from',
        message: `must be at most 4 quarters after the current one (${quarter}), so ${quarterAfter(quarter, 4)} at the latest`,
      },
    ]);
    const unknown = await admin.put('/admin/v1/fuel-tax-rates/PR', { ...PA, effective_from: quarter });
    expectProblem(unknown, 422, 'validation_failed');
    expect(unknown.json.errors).toEqual([
      {
        field: 'state',
        message: 'must be one of the 48 contiguous states or DC, as its two-letter code (e.g. PA)',
      },
    ]);
    const rate = await admin.put('/admin/v1/fuel-tax-rates/PA', {
      usd_per_gallon: 74.1,
      effective_from: quarter,
    });
    expectProblem(rate, 422, 'validation_failed');
    expect(rate.json.errors.map((error: { field: string }) => error.field)).toEqual(['usd_per_gallon']);
  });
});

describe('npm run admin (a thin client of this API)', () => {
  const admin = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
      env: { ...process.env, LOCAL_CREDENTIALS: inject('e2eCredentialsPath') },
    });

  it('prints the readiness report', async () => {
    const report = JSON.parse((await admin('readiness')).stdout);
    expect(report).toMatchObject({ object: 'readiness', stage: 'prod', routing: { fallback: 'embedded' } });
  });

  it('puts the plan catalog and lists it through the operator API', async () => {
    expect((await admin('put-plans')).stdout).toMatch(/Wrote \d+ plans: starter/);
    const listed = JSON.parse((await admin('plans')).stdout) as { data: { name: string }[] };
    expect(listed.data.map((plan) => plan.name)).toEqual(
      expect.arrayContaining(['starter', 'growth', 'sandbox']),
    );
  });

  it('onboards a company and reports the API’s problem on bad input', async () => {
    const onboarded = JSON.parse(
      (
        await admin(
          'create-company',
          '--name',
          `CLI ${unique}`,
          '--timezone',
          'UTC',
          '--contact-email',
          'cli@example.com',
        )
      ).stdout,
    );
    expect(onboarded.account.id).toMatch(/^cmp_/);
    expect(onboarded.key.secret).toMatch(/^svc_test_/);
    await expect(
      admin(
        'create-company',
        '--name',
        'CLI',
        '--timezone',
        'Mars/Base',
        '--contact-email',
        'cli@example.com',
      ),
    ).rejects.toThrow(/422 validation_failed/);
  });

  it('lists the fuel tax rates and stores one, reporting the API’s problem on bad input', async () => {
    const listed = JSON.parse((await admin('fuel-tax-rates')).stdout);
    expect(listed.in_force).toHaveLength(49);
    const later = quarterAfter(listed.quarter, 4);
    const stored = JSON.parse(
      (
        await admin(
          'set-fuel-tax-rate',
          '--state',
          'OH',
          '--usd-per-gallon',
          '0.47',
          '--effective-from',
          later,
        )
      ).stdout,
    );
    expect(stored).toMatchObject({
      state: 'OH',
      usd_per_gallon: 0.47,
      effective_from: later,
      source: 'operator',
    });
    await expect(
      admin('set-fuel-tax-rate', '--state', 'OH', '--usd-per-gallon', '3', '--effective-from', later),
    ).rejects.toThrow(/422 validation_failed[\s\S]*usd_per_gallon/);
  });
});

describe('GET /admin/v1/readiness', () => {
  it('reports the local production stage: embedded routing, no price feed bucket, the catalog it serves, and ready only without problems', async () => {
    const response = await admin.get('/admin/v1/readiness');

    expect(response.status).toBe(200);
    const body = response.json;
    expect(body).toMatchObject({
      object: 'readiness',
      stage: 'prod',
      routing: { engine: 'embedded', fallback: 'embedded' },
      price_feed_bucket: null,
    });
    // Dry runs are reported apart from the import readiness judges.
    expect(Object.keys(body)).toEqual(expect.arrayContaining(['last_price_import', 'last_dry_run']));
    expect(body.station_catalog.stale_after_hours).toBe(36);
    expect(body.station_catalog.station_count).toBeGreaterThan(0);
    expect(body.ready).toBe(body.problems.length === 0);
    if (body.station_catalog.source === 'synthetic') {
      // What `npm start` serves until `npm run stations:import`: production is not ready on it.
      expect(body.ready).toBe(false);
      expect(body.station_catalog.imported_at).toBeNull();
      expect(body.problems.join(' ')).toContain('synthetic station catalog');
    } else {
      expect(body.station_catalog.imported_at).toEqual(expect.any(String));
    }
  });

  it('needs the operator token, and the sandbox stage has no readiness route', async () => {
    expectProblem(await prod.get('/admin/v1/readiness'), 401, 'missing_api_key');
    expectProblem(
      await prod.get('/admin/v1/readiness', { key: credentials.keys.company_live }),
      403,
      'insufficient_scope',
    );
    expectProblem(await sandbox.get('/admin/v1/readiness', { key: operator }), 404, 'resource_not_found');
  });
});
