import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/kernel/ids.ts';
import { verifyWebhookSignature } from '../../webhooks-receiver/index.ts';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';

/**
 * The integration health endpoints over HTTP: who gets which fleet's scorecard, the partner's
 * summary list, the history's bounds, and the test call reaching a real loopback receiver (the
 * local stack delivers to loopback, as in webhook-delivery.test.ts).
 */
const credentials = loadCredentials();
const prod = api(credentials.base_url);
const { keys } = credentials;
const company = { key: keys.company_live };
const partner = { key: keys.partner_live };

const CHECK_IDS = [
  'breadcrumb_cadence',
  'fuel_level_coverage',
  'vehicle_profiles',
  'rejected_items',
  'silent_vehicles',
  'webhook_delivery',
  'guidance_in_use',
  'fuelings_reported',
  'purchases_verifiable',
  'key_age',
];

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}
const received: Received[] = [];
let answer = 204;
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    received.push({ headers: request.headers, body });
    response.writeHead(answer).end();
  });
});
let receiverUrl = '';

/** A fleet of this file's own, so its counts are exactly what this file sent. */
let fleetId = '';
let otherFleetId = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
  const created = await Promise.all(
    ['Health Fleet', 'Health Fleet 2'].map((name) =>
      prod.post('/v1/fleets', { ...partner, body: { name, timezone: 'UTC' } }),
    ),
  );
  for (const fleet of created) expect(fleet.status, fleet.text).toBe(201);
  fleetId = created[0]?.json.id;
  otherFleetId = created[1]?.json.id;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('GET /v1/integration/health', () => {
  it('gives a company key its own fleet’s scorecard, every check with its target', async () => {
    const response = await prod.get('/v1/integration/health', company);
    expect(response.status, response.text).toBe(200);
    const card = response.json;
    expect(card.fleet_id).toBe(credentials.fleets.company);
    expect(Number.isInteger(card.score) && card.score >= 0 && card.score <= 100).toBe(true);
    expect(['A', 'B', 'C', 'D', 'F']).toContain(card.grade);
    expect(card.checks.map((c: { id: string }) => c.id)).toEqual(CHECK_IDS);
    for (const check of card.checks) {
      expect(['pass', 'warn', 'fail']).toContain(check.status);
      expect(check.target).toBeTypeOf('string');
    }
    expect(card.window.hours).toBe(24);
    // The key age is the demo key's: created when the stack seeded it, today.
    expect(card.checks.find((c: { id: string }) => c.id === 'key_age')).toMatchObject({
      status: 'pass',
      observed: '0 days',
    });
  });

  it('counts what was sent to a fleet, for a partner naming it by fleet_id or SVC-Fleet alike', async () => {
    const vehicles = await Promise.all(
      [{ tank_size_gallons: 250, estimated_mpg: 6.4 }, {}].map((profile, i) =>
        prod.post('/v1/vehicles', {
          ...partner,
          fleet: fleetId,
          body: { external_ref: `HEALTH-${i}-${Date.now()}`, ...profile },
        }),
      ),
    );
    const [a, b] = vehicles.map((v) => v.json.id as string);
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const ingest = await prod.post('/v1/locations', {
      ...partner,
      fleet: fleetId,
      body: {
        locations: [
          { vehicle_id: a, latitude: 35.2, longitude: -97.4, recorded_at: at(6), fuel_level_percent: 61 },
          { vehicle_id: a, latitude: 35.21, longitude: -97.4, recorded_at: at(4), fuel_level_percent: 60 },
          { vehicle_id: a, latitude: 35.22, longitude: -97.4, recorded_at: at(2), fuel_level_percent: 60 },
          { vehicle_id: newId('vehicle'), latitude: 35.2, longitude: -97.4, recorded_at: at(2) },
        ],
      },
    });
    expect(ingest.json).toMatchObject({ accepted: 3, rejected: 1 });

    const byQuery = await prod.get('/v1/integration/health', { ...partner, query: { fleet_id: fleetId } });
    const byHeader = await prod.get('/v1/integration/health', { ...partner, fleet: fleetId });
    const both = await prod.get('/v1/integration/health', {
      ...partner,
      fleet: fleetId,
      query: { fleet_id: fleetId },
    });
    for (const response of [byQuery, byHeader, both]) {
      expect(response.status, response.text).toBe(200);
      expect(response.json.fleet_id).toBe(fleetId);
      expect(response.json.counts).toEqual({
        vehicles_active: 2,
        vehicles_reporting_24h: 1,
        vehicles_with_fuel_level: 1,
        vehicles_missing_tank_or_mpg: 1,
        breadcrumbs_24h: 3,
        rejected_items_24h: 1,
        fuelings_reported_7d: 0,
        fuelings_verified_7d: 0,
      });
    }
    const checks = Object.fromEntries(
      byQuery.json.checks.map((c: { id: string; status: string }) => [c.id, c.status]),
    );
    expect(checks).toMatchObject({
      // 3 breadcrumbs 2 minutes apart: a 2-minute cadence while the truck reported (the hours it
      // did not are the silent-vehicles check's to judge).
      breadcrumb_cadence: 'pass',
      silent_vehicles: 'fail',
      webhook_delivery: 'fail',
    });
    expect(byQuery.json.checks.find((c: { id: string }) => c.id === 'breadcrumb_cadence').observed).toBe(
      '2 min',
    );
    expect(b).toMatch(/^veh_/);
    const severities = byQuery.json.next_steps.map((s: { severity: string }) => s.severity);
    expect(severities).toEqual([...severities].sort());
  });

  it('refuses a fleet the key may not act on: 403 fleet_scope_mismatch, as the header would', async () => {
    expectProblem(
      await prod.get('/v1/integration/health', { ...partner, query: { fleet_id: newId('fleet') } }),
      403,
      'fleet_scope_mismatch',
    );
    expectProblem(
      await prod.get('/v1/integration/health', { ...company, query: { fleet_id: fleetId } }),
      403,
      'fleet_scope_mismatch',
    );
  });

  it('is 422 when fleet_id and SVC-Fleet name different fleets', async () => {
    const response = await prod.get('/v1/integration/health', {
      ...partner,
      fleet: fleetId,
      query: { fleet_id: otherFleetId },
    });
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.detail).toContain(otherFleetId);
  });

  it('is 403 insufficient_scope without usage:read', async () => {
    const response = await prod.get('/v1/integration/health', { key: keys.company_readonly });
    expectProblem(response, 403, 'insufficient_scope');
    expect(response.json.required_scope).toBe('usage:read');
  });

  it('gives a partner naming no fleet a paginated summary of its granted fleets', async () => {
    const seen: { fleet_id: string; name: string; score: number; grade: string; top_issue: unknown }[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await prod.get('/v1/integration/health', { ...partner, query: { limit: 2, cursor } });
      expect(page.status, page.text).toBe(200);
      expect(page.json.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.json.data);
      cursor = page.json.next_cursor ?? undefined;
      pages += 1;
    } while (cursor && pages < 100);
    expect(pages).toBeGreaterThan(1);
    const mine = seen.find((s) => s.fleet_id === fleetId);
    expect(mine).toMatchObject({
      name: 'Health Fleet',
      grade: expect.any(String),
      score: expect.any(Number),
    });
    expect(mine?.top_issue).toMatchObject({
      severity: 'high',
      check_id: expect.any(String),
      action: expect.any(String),
    });
    expect(seen.map((s) => s.fleet_id)).toContain(otherFleetId);
    expect(seen.map((s) => s.fleet_id)).not.toContain(credentials.fleets.company);

    expectProblem(
      await prod.get('/v1/integration/health', { ...partner, query: { cursor: 'not-a-cursor' } }),
      400,
      'invalid_cursor',
    );
  });
});

describe('GET /v1/integration/health/history', () => {
  it('answers the last 30 days by default, up to 90, and 422 beyond', async () => {
    const month = await prod.get('/v1/integration/health/history', company);
    expect(month.status, month.text).toBe(200);
    expect(month.json).toMatchObject({ fleet_id: credentials.fleets.company, days: 30 });
    expect(Array.isArray(month.json.snapshots)).toBe(true);
    const quarter = await prod.get('/v1/integration/health/history', { ...company, query: { days: 90 } });
    expect(quarter.json.days).toBe(90);

    const tooLong = await prod.get('/v1/integration/health/history', { ...company, query: { days: 91 } });
    expectProblem(tooLong, 422, 'validation_failed');
    expect(JSON.stringify(tooLong.json.errors)).toContain('days');
    expectProblem(
      await prod.get('/v1/integration/health/history', { ...company, query: { days: 0 } }),
      422,
      'validation_failed',
    );
  });

  it('needs a fleet for a partner, and refuses one not granted', async () => {
    const mine = await prod.get('/v1/integration/health/history', {
      ...partner,
      query: { fleet_id: fleetId },
    });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.json.fleet_id).toBe(fleetId);
    expectProblem(await prod.get('/v1/integration/health/history', partner), 400, 'fleet_header_required');
    expectProblem(
      await prod.get('/v1/integration/health/history', { ...partner, query: { fleet_id: newId('fleet') } }),
      403,
      'fleet_scope_mismatch',
    );
    expectProblem(
      await prod.get('/v1/integration/health/history', { key: keys.company_readonly }),
      403,
      'insufficient_scope',
    );
  });
});

describe.runIf(isLocalTarget())('POST /v1/integration/test', () => {
  it('sends a signed test event to each active endpoint, reports each answer, and never disables one', async () => {
    const created = await prod.post('/v1/webhooks', {
      ...partner,
      fleet: fleetId,
      body: { url: receiverUrl, event_types: ['vehicle.fuel_low'] },
    });
    expect(created.status, created.text).toBe(201);
    const endpointId = created.json.id as string;

    answer = 204;
    const passed = await prod.post('/v1/integration/test', { ...partner, query: { fleet_id: fleetId } });
    expect(passed.status, passed.text).toBe(200);
    expect(passed.json.endpoints).toEqual([
      {
        endpoint_id: endpointId,
        url: receiverUrl,
        event_type: 'vehicle.fuel_low',
        delivered: true,
        status_code: 204,
        latency_ms: expect.any(Number),
        error: null,
      },
    ]);
    expect(passed.json.scorecard.fleet_id).toBe(fleetId);
    const delivery = received.find((r) => JSON.parse(r.body).fleet_id === fleetId);
    expect(delivery).toBeDefined();
    expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({ type: 'vehicle.fuel_low', test: true });
    const verified = verifyWebhookSignature({
      rawBody: delivery?.body ?? '',
      header: String(delivery?.headers['x-service-signature']),
      secrets: created.json.secret,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    expect(verified.ok).toBe(true);

    answer = 500;
    for (let i = 0; i < 3; i += 1) {
      const failed = await prod.post('/v1/integration/test', { ...partner, fleet: fleetId });
      expect(failed.status, failed.text).toBe(200);
      expect(failed.json.endpoints[0]).toMatchObject({ delivered: false, status_code: 500 });
      expect(failed.json.next_steps[0]).toMatchObject({ severity: 'high', check_id: 'webhook_delivery' });
      expect(failed.json.next_steps[0].action).toContain(endpointId);
    }
    const endpoint = await prod.get(`/v1/webhooks/${endpointId}`, { ...partner, fleet: fleetId });
    expect(endpoint.json.status).toBe('active');
  });

  it('needs a fleet for a partner, refuses one not granted, and needs usage:read', async () => {
    expectProblem(await prod.post('/v1/integration/test', partner), 400, 'fleet_header_required');
    expectProblem(
      await prod.post('/v1/integration/test', { ...partner, query: { fleet_id: newId('fleet') } }),
      403,
      'fleet_scope_mismatch',
    );
    expectProblem(
      await prod.post('/v1/integration/test', { key: keys.company_readonly }),
      403,
      'insufficient_scope',
    );
  });

  it('answers a company key for its own fleet', async () => {
    const response = await prod.post('/v1/integration/test', company);
    expect(response.status, response.text).toBe(200);
    expect(response.json.scorecard.fleet_id).toBe(credentials.fleets.company);
    expect(Array.isArray(response.json.endpoints)).toBe(true);
  });
});
