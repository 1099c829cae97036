import { describe, expect, it } from 'vitest';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const partner = { key: credentials.keys.partner_live };
const [grantedFleet] = credentials.fleets.partner_granted;
// A literal public address: no DNS needed, and nothing is delivered by these tests.
const PUBLIC_URL = 'https://93.184.216.34/fleet-hooks';

const create = (auth: { key: string; fleet?: string }, body: Record<string, unknown>) =>
  prod.post('/v1/webhooks', {
    ...auth,
    body: { url: PUBLIC_URL, event_types: ['guidance.updated'], ...body },
  });

describe('GET /v1/webhooks/event-types', () => {
  it('lists the 14 catalog types, to any valid key', async () => {
    const response = await prod.get('/v1/webhooks/event-types', { key: credentials.keys.company_readonly });
    expect(response.status).toBe(200);
    expect(response.json.data).toHaveLength(14);
    expect(response.json.data.map((t: { type: string }) => t.type)).toContain('fleet.provisioned');
    expect(response.json.data.map((t: { type: string }) => t.type)).toContain('fueling.flagged');
    for (const t of response.json.data) expect(t.description.length).toBeGreaterThan(10);
    // Spec section 6: guidance.updated holds vehicle_id and guidance_id.
    const updated = response.json.data.find((t: { type: string }) => t.type === 'guidance.updated');
    expect(updated.data_fields).toEqual(expect.arrayContaining(['vehicle_id', 'guidance_id']));
  });
});

describe('webhook endpoints', () => {
  it('creates with a one-time whsec_ secret that GET and list never show', async () => {
    const created = await create(company, { description: 'TMS' });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ status: 'active', level: 'fleet', url: PUBLIC_URL });
    expect(created.json.id).toMatch(/^whk_/);
    expect(created.json.secret).toMatch(/^whsec_/);

    const fetched = await prod.get(`/v1/webhooks/${created.json.id}`, company);
    expect(fetched.status).toBe(200);
    expect(fetched.json).not.toHaveProperty('secret');
    expect(fetched.text).not.toContain(created.json.secret);
    const { secret: _secret, ...withoutSecret } = created.json;
    expect(fetched.json).toEqual(withoutSecret);

    const list = await prod.get('/v1/webhooks', { ...company, query: { limit: 100 } });
    expect(list.text).not.toContain('whsec_');
    expect(list.json.data.map((e: { id: string }) => e.id)).toContain(created.json.id);
  });

  it('patches, rotates (a new secret, shown once) and deletes', async () => {
    const { json: endpoint } = await create(company, { event_types: ['*'] });
    const patched = await prod.patch(`/v1/webhooks/${endpoint.id}`, {
      ...company,
      body: { event_types: ['vehicle.fuel_low', 'vehicle.offline'], description: 'ops', status: 'disabled' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({
      event_types: ['vehicle.fuel_low', 'vehicle.offline'],
      status: 'disabled',
    });
    const reenabled = await prod.patch(`/v1/webhooks/${endpoint.id}`, {
      ...company,
      body: { status: 'active' },
    });
    expect(reenabled.json).toMatchObject({ status: 'active', disabled_reason: null });

    const rotated = await prod.post(`/v1/webhooks/${endpoint.id}/rotate-secret`, company);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(endpoint.secret);

    expect((await prod.delete(`/v1/webhooks/${endpoint.id}`, company)).status).toBe(204);
    expectProblem(await prod.get(`/v1/webhooks/${endpoint.id}`, company), 404, 'resource_not_found');
  });

  it.each([
    // Loopback targets are refused on deployed stages but accepted by the local stack (its
    // receivers run on this machine): those cases are unit tests (test/unit/platform/url-guard.test.ts).
    // These are refused everywhere:
    ['a private-network address', { url: 'https://10.0.0.1/hook' }, 'url'],
    ['the cloud metadata address', { url: 'http://169.254.169.254/latest/meta-data' }, 'url'],
    ['a URL with credentials', { url: 'https://user:secret@93.184.216.34/hook' }, 'url'],
    ['a non-HTTP scheme', { url: 'ftp://93.184.216.34/hook' }, 'url'],
    ['no URL at all', { url: 'not a url' }, 'url'],
    ['an unknown event type', { event_types: ['guidance.updated', 'truck.exploded'] }, 'event_types'],
    ['the wildcard with other types', { event_types: ['*', 'guidance.updated'] }, 'event_types'],
    ['no event types', { event_types: [] }, 'event_types'],
  ])('422 for %s, naming the field', async (_case, body, field) => {
    const response = await create(company, body);
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors.map((e: { field: string }) => e.field)).toEqual([field]);
  });

  it('keeps partner-level and fleet-level endpoints apart, and other fleets out', async () => {
    const partnerLevel = await create(partner, { event_types: ['fleet.provisioned'] });
    expect(partnerLevel.status, partnerLevel.text).toBe(201);
    expect(partnerLevel.json.level).toBe('partner');
    const fleetLevel = await create({ ...partner, fleet: grantedFleet as string }, {});
    expect(fleetLevel.json.level).toBe('fleet');

    const partnerList = await prod.get('/v1/webhooks', { ...partner, query: { limit: 100 } });
    const ids = partnerList.json.data.map((e: { id: string }) => e.id);
    expect(ids).toContain(partnerLevel.json.id);
    expect(ids).not.toContain(fleetLevel.json.id);

    expectProblem(await prod.get(`/v1/webhooks/${fleetLevel.json.id}`, company), 404, 'resource_not_found');
    expectProblem(await prod.get(`/v1/webhooks/${partnerLevel.json.id}`, company), 404, 'resource_not_found');
  });

  it('needs webhooks:manage', async () => {
    const response = await prod.get('/v1/webhooks', { key: credentials.keys.company_readonly });
    expectProblem(response, 403, 'insufficient_scope');
    expect(response.json.required_scope).toBe('webhooks:manage');
  });
});

describe.runIf(isLocalTarget())('webhook receivers on the local stack', () => {
  it('accepts one on this machine over http, as npm start does with no flag', async () => {
    const created = await create(company, { url: 'http://127.0.0.1:4999/hooks' });
    expect(created.status, created.text).toBe(201);
    expect((await prod.delete(`/v1/webhooks/${created.json.id}`, company)).status).toBe(204);
  });

  it('refuses a private-network one, with a hint naming the flag that would allow it', async () => {
    const refused = await create(company, { url: 'https://192.168.1.20/hooks' });
    expectProblem(refused, 422, 'validation_failed');
    expect(refused.json.detail).toBe(
      'The webhook url is not allowed: host 192.168.1.20 is a private address.',
    );
    expect(refused.json.hint).toContain('npm start -- --webhook-targets private');
  });
});
