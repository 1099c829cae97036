import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../webhooks-receiver/index.ts';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { publishedWebhookTypes, webhookEnvelopeProblems } from '../support/published-events.ts';
import { ASYNC_EFFECT_TIMEOUT_MS } from './support-waits.ts';

/**
 * A real receiver on loopback: the local stack (which accepts receivers on this machine by default)
 * delivers to it over HTTP through the in-process queue and dispatcher, exactly as Lambda would.
 */
const credentials = loadCredentials();
const prod = api(credentials.base_url);
const partner = { key: credentials.keys.partner_live };

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

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function waitFor<T>(what: () => T | undefined, timeoutMs = ASYNC_EFFECT_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = what();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting for a webhook delivery');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(isLocalTarget())('end-to-end delivery to a loopback receiver', () => {
  it('delivers fleet.provisioned, signed, to a partner-level endpoint, logs it, replays it with the same event id', async () => {
    const endpoint = await prod.post('/v1/webhooks', {
      ...partner,
      body: { url: receiverUrl, event_types: ['fleet.provisioned'] },
    });
    expect(endpoint.status, endpoint.text).toBe(201);

    const fleet = await prod.post('/v1/fleets', {
      ...partner,
      body: { name: 'Webhook Fleet', timezone: 'UTC' },
    });
    expect(fleet.status).toBe(201);

    const delivery = await waitFor(() => received.find((r) => r.body.includes(fleet.json.id)));
    const envelope = JSON.parse(delivery.body);
    expect(envelope).toMatchObject({
      type: 'fleet.provisioned',
      sequence: 1,
      fleet_id: fleet.json.id,
      api_version: '2026-07-01',
      sandbox: false,
    });
    expect(envelope.id).toMatch(/^evt_/);
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['user-agent']).toBe('Service-Webhooks/1.0');
    expect(delivery.headers['x-service-event-id']).toBe(envelope.id);
    expect(delivery.headers['x-service-event-type']).toBe('fleet.provisioned');
    const verified = verifyWebhookSignature({
      rawBody: delivery.body,
      header: String(delivery.headers['x-service-signature']),
      secrets: endpoint.json.secret,
    });
    expect(verified.ok).toBe(true);

    const deliveries = await prod.get(`/v1/webhooks/${endpoint.json.id}/deliveries`, partner);
    const logged = deliveries.json.data.find((d: { event_id: string }) => d.event_id === envelope.id);
    expect(logged).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      last_status_code: 204,
      is_replay: false,
    });

    const replay = await prod.post(
      `/v1/webhooks/${endpoint.json.id}/deliveries/${logged.id}/replay`,
      partner,
    );
    expect(replay.status, replay.text).toBe(202);
    expect(replay.json).toMatchObject({ is_replay: true, event_id: envelope.id });
    const copies = await waitFor(() => {
      const same = received.filter((r) => r.headers['x-service-event-id'] === envelope.id);
      return same.length >= 2 ? same : undefined;
    });
    expect(copies[1]?.body).toBe(copies[0]?.body);
  });

  it('records a failed first attempt as retrying with a next retry time', async () => {
    answer = 503;
    const endpoint = await prod.post('/v1/webhooks', {
      ...partner,
      body: { url: receiverUrl, event_types: ['*'] },
    });
    const fleet = await prod.post('/v1/fleets', {
      ...partner,
      body: { name: 'Failing receiver', timezone: 'UTC' },
    });
    await waitFor(() => received.find((r) => r.body.includes(fleet.json.id)));
    let entry: { status: string; next_retry_at: string | null; last_status_code: number } | undefined;
    const deadline = Date.now() + ASYNC_EFFECT_TIMEOUT_MS;
    while (entry?.status !== 'retrying' && Date.now() < deadline) {
      const page = await prod.get(`/v1/webhooks/${endpoint.json.id}/deliveries`, {
        ...partner,
        query: { status: 'retrying' },
      });
      entry = page.json.data[0];
      if (entry?.status !== 'retrying') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(entry).toMatchObject({ status: 'retrying', last_status_code: 503 });
    expect(entry?.next_retry_at).toMatch(/Z$/);
    answer = 204;
  });

  it('answers a test send synchronously with the receiver’s status, without a body', async () => {
    const endpoint = await prod.post('/v1/webhooks', {
      ...partner,
      body: { url: receiverUrl, event_types: ['*'] },
    });
    const response = await prod.post(`/v1/webhooks/${endpoint.json.id}/test`, partner);
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({
      delivered: true,
      status_code: 204,
      event: { type: 'guidance.updated' },
    });
    const test = received.find((r) => r.headers['x-service-event-id'] === response.json.event.id);
    expect(JSON.parse(test?.body ?? '{}')).toMatchObject({
      test: true,
      sequence: 0,
      type: 'guidance.updated',
    });
  });

  it('sends, for a named type, a realistic payload with every data field the catalog publishes for it', async () => {
    const catalog = await prod.get('/v1/webhooks/event-types', partner);
    const published = catalog.json.data as { type: string; data_fields: string[] }[];
    expect(published.map((entry) => entry.type)).toEqual(publishedWebhookTypes());
    const endpoint = await prod.post('/v1/webhooks', {
      ...partner,
      fleet: credentials.fleets.partner_granted[0] as string,
      body: { url: receiverUrl, event_types: ['*'] },
    });
    expect(endpoint.status, endpoint.text).toBe(201);

    for (const { type, data_fields } of published) {
      const response = await prod.post(`/v1/webhooks/${endpoint.json.id}/test`, {
        ...partner,
        fleet: credentials.fleets.partner_granted[0] as string,
        body: { event_type: type },
      });
      expect(response.json, type).toMatchObject({ delivered: true, event: { type } });
      const delivered = received.find((r) => r.headers['x-service-event-id'] === response.json.event.id);
      const event = JSON.parse(delivered?.body ?? '{}');
      expect(event).toMatchObject({ type, test: true, sequence: 0 });
      expect(Object.keys(event.data).sort(), type).toEqual(
        data_fields.map((field) => field.replace(/\?$/, '')).sort(),
      );
      expect(webhookEnvelopeProblems(event), type).toEqual([]);
      // Every member filled in, as a real event of the type would be.
      for (const field of Object.keys(event.data))
        expect(event.data[field], `${type}.${field}`).not.toBeNull();
      if ('vehicle_id' in event.data) expect(event.data.external_ref, type).toEqual(expect.any(String));
    }
  });

  // Runs last: every body the receiver got above (real fleet.provisioned events, their replay, the
  // retried delivery and the test sends) against openapi.json.
  it('delivered nothing openapi.json does not publish: each body is its type’s webhook', () => {
    expect(received.length).toBeGreaterThan(0);
    for (const delivery of received) {
      const event = JSON.parse(delivery.body);
      expect(webhookEnvelopeProblems(event), delivery.body).toEqual([]);
      expect(delivery.headers['x-service-event-type']).toBe(event.type);
    }
  });
});
