import { describe, expect, it } from 'vitest';
import type { LocalCredentials } from './credentials.ts';
import { type BannerInput, progressLine, readyBanner } from './startup-report.ts';

const credentials: LocalCredentials = {
  base_url: 'http://127.0.0.1:3000',
  sandbox_base_url: 'http://127.0.0.1:3001',
  operator_token: 'op_token',
  fleets: { company: 'flt_company', company_sandbox: 'flt_sandbox', partner_granted: ['flt_partner'] },
  keys: {
    partner_live: 'svc_live_partner',
    company_live: 'svc_live_company',
    company_test: 'svc_test_company',
    company_readonly: 'svc_live_readonly',
    company_revoked: 'svc_live_revoked',
    company_suspended: 'svc_live_suspended',
  },
};

const banner = (overrides: Partial<BannerInput> = {}) =>
  readyBanner(
    {
      credentials,
      credentialsPath: '/repo/.local/credentials.json',
      dbPath: '/repo/.local/dynamodb',
      totalMs: 7890,
      webhookTargets: 'loopback',
      quiet: false,
      logFormat: 'lines',
      ...overrides,
    },
    '/repo',
  );

describe('progressLine', () => {
  it('says what each step did', () => {
    expect(progressLine({ step: 'java', major: 17 })).toBe('✓ Java 17 found');
    expect(
      progressLine(
        { step: 'dynamodb', endpoint: 'http://127.0.0.1:8000', dbPath: '/repo/.local/dynamodb', ms: 2100 },
        '/repo',
      ),
    ).toBe('✓ DynamoDB Local started on http://127.0.0.1:8000 (data in .local/dynamodb) (2.1 s)');
    expect(progressLine({ step: 'dynamodb', endpoint: 'http://x', dbPath: undefined, ms: 0 })).toContain(
      'in memory, nothing kept',
    );
    expect(progressLine({ step: 'tables', created: ['a'], existing: ['b'], ms: 100 })).toBe(
      '✓ Tables ready: created a; kept b (0.1 s)',
    );
    expect(
      progressLine({
        step: 'catalog',
        catalogs: [
          { stage: 'prod', source: 'imported', count: 4200, detail: 'opis-2026-11' },
          { stage: 'sandbox', source: 'synthetic', count: 796, detail: '47 states' },
        ],
        ms: 150,
      }),
    ).toBe(
      '✓ Station catalog: prod 4200 imported stations (opis-2026-11); sandbox 796 synthetic stations in 47 states (0.1 s)',
    );
    expect(progressLine({ step: 'seed', outcome: { world: 'kept', keys: 'reused' }, ms: 300 })).toBe(
      '✓ Seed: demo data kept; keys reused from the last run (0.3 s)',
    );
    expect(progressLine({ step: 'seed', outcome: { world: 'created', keys: 'issued' }, ms: 300 })).toMatch(
      /demo fleets and partner created; new keys issued/,
    );
    expect(progressLine({ step: 'servers', ports: { prod: 3000, sandbox: 3001 }, ms: 40 })).toBe(
      '✓ Stage servers listening on ports 3000 (prod) and 3001 (sandbox), running the TypeScript sources (0.0 s)',
    );
    expect(
      progressLine(
        {
          step: 'servers',
          ports: { prod: 3000, sandbox: 3001 },
          functionBundles: '/repo/dist/functions',
          ms: 40,
        },
        '/repo',
      ),
    ).toBe(
      '✓ Stage servers listening on ports 3000 (prod) and 3001 (sandbox), running the bundles in dist/functions (0.0 s)',
    );
  });
});

describe('readyBanner', () => {
  it('shows both base URLs and every key with what it is for', () => {
    const text = banner();
    expect(text).toContain('prod      http://127.0.0.1:3000');
    expect(text).toContain('sandbox   http://127.0.0.1:3001');
    for (const key of Object.values(credentials.keys)) expect(text).toContain(key);
    expect(text).toMatch(
      /company_live\s+svc_live_company\s+prod, company key, every company scope \(start here\)/,
    );
    expect(text).toMatch(/company_test\s+svc_test_company\s+sandbox/);
    expect(text).toContain('SVC-Fleet: flt_partner');
    expect(text).toContain('Keys (also in .local/credentials.json)');
  });

  it('links the sandbox page on the sandbox stage', () => {
    expect(banner()).toContain(
      'Map       http://127.0.0.1:3001/sandbox   (the sandbox fleet live; enter the company_test key)',
    );
  });

  it('gives one request that works as pasted, without jq', () => {
    const curl = banner()
      .split('\n')
      .find((line) => line.trim().startsWith('curl'));
    expect(curl?.trim()).toBe(
      'curl -s http://127.0.0.1:3000/v1/me -H "Authorization: Bearer svc_live_company"',
    );
    expect(banner()).not.toMatch(/jq|\$\{?[A-Z_]+/);
  });

  it('tells how to receive webhooks: by default with the listener, which needs no flag', () => {
    const lines = banner().split('\n');
    const webhooks = lines.findIndex((line) => line.startsWith('  Webhooks'));
    expect(lines[webhooks]).toBe(
      '  Webhooks  npm run webhooks:listen   (in another terminal: registers a loopback receiver with',
    );
    expect(lines.slice(webhooks, webhooks + 2).join(' ')).not.toContain('--');
  });

  it('says when the stack was started with the deployed rule, and how to get the default back', () => {
    const text = banner({ webhookTargets: 'public' });
    expect(text).toContain('public HTTPS receivers only (--webhook-targets public, the deployed rule)');
    expect(text).toContain('plain\n            npm start also accepts receivers on this machine');
  });

  it('says when private-network receivers are accepted too', () => {
    expect(banner({ webhookTargets: 'private' })).toContain(
      'receivers on private networks are\n            accepted too (--webhook-targets private)',
    );
  });

  it('says where the data is kept and how to start over, or that nothing is kept', () => {
    expect(banner()).toContain('kept in .local/dynamodb across restarts (npm start -- --fresh starts over)');
    expect(banner({ dbPath: undefined })).toContain('in memory: gone when this stops');
  });
});
