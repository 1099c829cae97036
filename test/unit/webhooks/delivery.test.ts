import { describe, expect, it, vi } from 'vitest';
import type { EventEnvelope } from '#shared/events/domain/envelope.ts';
import type { DeliveryMessage, WebhookDelivery } from '#shared/webhooks/domain/delivery.ts';
import type { WebhookEndpoint } from '#shared/webhooks/domain/endpoint.ts';
import { rotateSecrets } from '#shared/webhooks/domain/endpoint.ts';
import { MAX_DELIVERY_ATTEMPTS, RETRY_DELAYS_SECONDS } from '#shared/webhooks/domain/retry-schedule.ts';
import {
  attemptDelivery,
  type DeliveryDeps,
  fanOut,
  replayDelivery,
  sendTestEvent,
} from '#shared/webhooks/usecases/webhook-delivery.ts';
import { testEventData } from '#shared/webhooks/usecases/webhook-test-samples.ts';
import { verifyWebhookSignature } from '../../../webhooks-receiver/index.ts';

const T0 = Date.parse('2026-11-21T12:00:00Z');
const fleetOwner = { kind: 'fleet' as const, fleetId: 'flt_A' };

const endpoint = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: 'whk_1',
  owner: fleetOwner,
  url: 'https://receiver.test/hook',
  eventTypes: ['*'],
  description: null,
  status: 'active',
  disabledReason: null,
  secrets: [{ value: 'whsec_current', expiresAtMs: null }],
  consecutiveFailedDeliveries: 0,
  healthySinceMs: T0 - 30 * 86_400_000,
  createdAt: '2026-10-01T00:00:00.000000Z',
  updatedAt: '2026-10-01T00:00:00.000000Z',
  ...overrides,
});

const event = (type = 'vehicle.fuel_low', fleetId = 'flt_A'): EventEnvelope => ({
  id: 'evt_1',
  type: type as EventEnvelope['type'],
  api_version: '2026-07-01',
  sandbox: false,
  sequence: 7,
  occurred_at: '2026-11-21T12:00:00.000000Z',
  fleet_id: fleetId,
  data: { vehicle_id: 'veh_1' },
});

/** In-memory stores and recording ports: enough to drive the delivery state machine. */
function harness(endpoints: WebhookEndpoint[], responses: (number | null)[]) {
  let now = T0;
  const deliveries = new Map<string, WebhookDelivery>();
  const stored = new Map(endpoints.map((e) => [`${JSON.stringify(e.owner)}|${e.id}`, e]));
  const sent: { url: string; body: string; headers: Record<string, string> }[] = [];
  const scheduled: { name: string; at: Date; message: DeliveryMessage }[] = [];
  const deadLetters: DeliveryMessage[] = [];
  const queued: DeliveryMessage[] = [];
  const counted: { fleetId: string; endpointId: string; atMs: number; succeeded: boolean }[] = [];
  const deps: DeliveryDeps = {
    endpoints: {
      create: vi.fn(),
      get: async (owner, id) => stored.get(`${JSON.stringify(owner)}|${id}`) ?? null,
      save: async (e) => {
        stored.set(`${JSON.stringify(e.owner)}|${e.id}`, e);
        return true;
      },
      recordSuccess: async (owner, id, nowMs) => {
        const key = `${JSON.stringify(owner)}|${id}`;
        const e = stored.get(key);
        if (e) stored.set(key, { ...e, consecutiveFailedDeliveries: 0, healthySinceMs: nowMs });
      },
      recordExhausted: async (owner, id, shouldDisable) => {
        const key = `${JSON.stringify(owner)}|${id}`;
        const e = stored.get(key);
        if (!e) return 0;
        const consecutive = e.consecutiveFailedDeliveries + 1;
        const reason = shouldDisable(consecutive, e.healthySinceMs);
        stored.set(key, {
          ...e,
          consecutiveFailedDeliveries: consecutive,
          ...(reason ? { status: 'disabled', disabledReason: reason } : {}),
        });
        return consecutive;
      },
      delete: vi.fn(),
      list: vi.fn(),
      all: async (owner) =>
        [...stored.values()].filter((e) => JSON.stringify(e.owner) === JSON.stringify(owner)),
    },
    deliveries: {
      create: async (ds) => {
        for (const d of ds) deliveries.set(d.id, d);
      },
      get: async (_owner, _endpointId, id) => deliveries.get(id) ?? null,
      // The real store's guard: only from the attempt count it was read at, only while unfinished.
      save: async (d, expectedAttempts) => {
        const current = deliveries.get(d.id);
        if (
          !current ||
          current.attempts !== expectedAttempts ||
          current.status === 'succeeded' ||
          current.status === 'failed'
        ) {
          return false;
        }
        deliveries.set(d.id, d);
        return true;
      },
      list: vi.fn(),
    },
    queue: { send: async (messages) => void queued.push(...messages) },
    retries: { scheduleOnce: async (name, at, message) => void scheduled.push({ name, at, message }) },
    deadLetters: { send: async (messages) => void deadLetters.push(...messages) },
    send: async (url, body, headers) => {
      sent.push({ url, body, headers });
      const status = responses.shift() ?? 500;
      return {
        statusCode: status,
        ok: status !== null && status >= 200 && status < 300,
        error: status === null ? 'timeout' : null,
        durationMs: 12,
      };
    },
    now: () => now,
    random: () => 0.5,
    healthCounters: {
      recordDeliveryAttempt: async (fleetId, endpointId, atMs, succeeded) =>
        void counted.push({ fleetId, endpointId, atMs, succeeded }),
    },
  };
  return {
    deps,
    counted,
    deliveries,
    stored,
    sent,
    scheduled,
    deadLetters,
    queued,
    advanceTo: (ms: number) => {
      now = ms;
    },
  };
}

/** Runs the first attempt and then every scheduled retry, as the queue and scheduler would. */
async function runAllAttempts(h: ReturnType<typeof harness>) {
  await attemptDelivery(h.deps, h.queued[0] as DeliveryMessage);
  for (let i = 0; i < MAX_DELIVERY_ATTEMPTS - 1; i++) {
    const retry = h.scheduled[i];
    if (!retry) break;
    await attemptDelivery(h.deps, retry.message);
  }
}

describe('fan-out', () => {
  it('creates one delivery per active subscribed endpoint of the fleet, with the envelope bytes, and queues them', async () => {
    const h = harness(
      [
        endpoint({ id: 'whk_all' }),
        endpoint({ id: 'whk_low', eventTypes: ['vehicle.fuel_low'] }),
        endpoint({ id: 'whk_other', eventTypes: ['trip.started'] }),
        endpoint({ id: 'whk_off', status: 'disabled' }),
        endpoint({ id: 'whk_elsewhere', owner: { kind: 'fleet', fleetId: 'flt_B' } }),
      ],
      [],
    );
    const created = await fanOut(h.deps, event(), null);
    expect(created.map((d) => d.endpointId).sort()).toEqual(['whk_all', 'whk_low']);
    expect(JSON.parse(created[0]?.body ?? '')).toEqual(event());
    expect(h.queued.map((m) => m.endpointId).sort()).toEqual(['whk_all', 'whk_low']);
  });

  it("sends fleet.provisioned to the partner's partner-level endpoints too, and nothing else there", async () => {
    const partnerEndpoint = endpoint({ id: 'whk_partner', owner: { kind: 'partner', partnerId: 'ptr_1' } });
    const h = harness([partnerEndpoint], []);
    expect((await fanOut(h.deps, event('fleet.provisioned'), 'ptr_1')).map((d) => d.endpointId)).toEqual([
      'whk_partner',
    ]);
    expect(await fanOut(h.deps, event('vehicle.fuel_low'), 'ptr_1')).toEqual([]);
  });
});

describe('attempts, retries and the dead-letter queue', () => {
  it('signs the exact body, marks a 2xx succeeded, and leaves a redelivered message alone', async () => {
    const h = harness([endpoint()], [204]);
    const [delivery] = await fanOut(h.deps, event(), null);
    const message = h.queued[0] as DeliveryMessage;
    const done = await attemptDelivery(h.deps, message);
    expect(done).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 204 });

    const { headers, body } = h.sent[0] as { headers: Record<string, string>; body: string };
    expect(body).toBe(delivery?.body);
    expect(headers).toMatchObject({
      'Content-Type': 'application/json',
      'User-Agent': 'Service-Webhooks/1.0',
      'X-Service-Event-Id': 'evt_1',
      'X-Service-Event-Type': 'vehicle.fuel_low',
    });
    const verified = verifyWebhookSignature({
      rawBody: body,
      header: headers['X-Service-Signature'],
      secrets: 'whsec_current',
      nowSeconds: T0 / 1000,
    });
    expect(verified.ok).toBe(true);

    await attemptDelivery(h.deps, message);
    expect(h.sent).toHaveLength(1);
    // One health counter update for the one attempt, none for the redelivered message.
    expect(h.counted).toEqual([
      {
        fleetId: delivery?.owner.kind === 'fleet' ? delivery.owner.fleetId : '',
        endpointId: delivery?.endpointId,
        atMs: T0,
        succeeded: true,
      },
    ]);
  });

  it('retries on the published schedule with a fake clock, then fails into the DLQ after the last attempt', async () => {
    const h = harness([endpoint()], Array(MAX_DELIVERY_ATTEMPTS).fill(503));
    await fanOut(h.deps, event(), null);
    let message = h.queued[0] as DeliveryMessage;
    let now = T0;
    for (let attempt = 1; attempt <= MAX_DELIVERY_ATTEMPTS; attempt++) {
      expect(message.attempt).toBe(attempt);
      const after = await attemptDelivery(h.deps, message);
      if (attempt < MAX_DELIVERY_ATTEMPTS) {
        expect(after?.status).toBe('retrying');
        const retry = h.scheduled.at(-1);
        // random() = 0.5 is the middle of the ±10 % jitter: exactly the published delay.
        expect((retry?.at.getTime() ?? 0) - now).toBe((RETRY_DELAYS_SECONDS[attempt] ?? 0) * 1000);
        expect(retry?.name).toBe(`${after?.id}-attempt-${attempt + 1}`);
        now = retry?.at.getTime() ?? now;
        h.advanceTo(now);
        message = retry?.message as DeliveryMessage;
      } else {
        expect(after).toMatchObject({
          status: 'failed',
          attempts: MAX_DELIVERY_ATTEMPTS,
          lastStatusCode: 503,
        });
      }
    }
    expect(h.scheduled).toHaveLength(MAX_DELIVERY_ATTEMPTS - 1);
    expect(h.deadLetters).toEqual([message]);
    // A late duplicate of an old attempt changes nothing.
    await attemptDelivery(h.deps, { ...message, attempt: 2 });
    expect(h.sent).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    expect([...h.stored.values()][0]?.consecutiveFailedDeliveries).toBe(1);
    // Every attempt counted once, each a failure, for the fleet's health scorecard.
    expect(h.counted).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    expect(h.counted.every((c) => !c.succeeded)).toBe(true);
  });

  it('auto-disables an endpoint whose deliveries keep failing for days, never one with a recent success', async () => {
    const failing = endpoint({ consecutiveFailedDeliveries: 4, healthySinceMs: T0 - 6 * 86_400_000 });
    const h = harness([failing], Array(MAX_DELIVERY_ATTEMPTS).fill(500));
    await fanOut(h.deps, event(), null);
    await runAllAttempts(h);
    expect([...h.stored.values()][0]).toMatchObject({ status: 'disabled', consecutiveFailedDeliveries: 5 });

    const recent = harness(
      [endpoint({ consecutiveFailedDeliveries: 4, healthySinceMs: T0 - 86_400_000 })],
      Array(8).fill(500),
    );
    await fanOut(recent.deps, event(), null);
    await runAllAttempts(recent);
    expect([...recent.stored.values()][0]?.status).toBe('active');
  });

  it('carries one v1 per valid secret during a rotation, and the old one stops after 24 hours', async () => {
    const rotated = endpoint({
      secrets: rotateSecrets([{ value: 'whsec_old', expiresAtMs: null }], 'whsec_new', T0),
    });
    const h = harness([rotated], [200, 200]);
    await fanOut(h.deps, event(), null);
    await attemptDelivery(h.deps, h.queued[0] as DeliveryMessage);
    const header = h.sent[0]?.headers['X-Service-Signature'] ?? '';
    expect(header.match(/v1=/g)).toHaveLength(2);
    for (const secret of ['whsec_old', 'whsec_new']) {
      expect(
        verifyWebhookSignature({
          rawBody: h.sent[0]?.body ?? '',
          header,
          secrets: secret,
          nowSeconds: T0 / 1000,
        }).ok,
      ).toBe(true);
    }

    h.advanceTo(T0 + 24 * 3600 * 1000 + 1);
    await fanOut(h.deps, { ...event(), id: 'evt_2' }, null);
    await attemptDelivery(h.deps, h.queued[1] as DeliveryMessage);
    expect(h.sent[1]?.headers['X-Service-Signature']?.match(/v1=/g)).toHaveLength(1);
  });

  it('fails a delivery at once when its endpoint was disabled or deleted meanwhile', async () => {
    const h = harness([endpoint()], []);
    await fanOut(h.deps, event(), null);
    await h.deps.endpoints.save(endpoint({ status: 'disabled' }));
    expect(await attemptDelivery(h.deps, h.queued[0] as DeliveryMessage)).toMatchObject({
      status: 'failed',
      lastError: 'endpoint disabled',
    });
    expect(h.sent).toHaveLength(0);
  });
});

describe('replay', () => {
  it('re-sends the same event id and bytes as a new delivery marked is_replay, within 30 days', async () => {
    const h = harness([endpoint()], [500, 204]);
    const [original] = await fanOut(h.deps, event(), null);
    const replay = await replayDelivery(h.deps, endpoint(), original as WebhookDelivery);
    expect(replay).toMatchObject({
      isReplay: true,
      eventId: 'evt_1',
      body: original?.body,
      status: 'pending',
    });
    expect(replay.id).not.toBe(original?.id);
    expect(h.queued.at(-1)?.deliveryId).toBe(replay.id);
  });

  it('is 410 event_expired once the event is past the replay window', async () => {
    const h = harness([endpoint()], []);
    const [original] = await fanOut(h.deps, event(), null);
    h.advanceTo(Date.parse('2026-11-21T12:00:00Z') + 30 * 86_400_000);
    await expect(replayDelivery(h.deps, endpoint(), original as WebhookDelivery)).rejects.toMatchObject({
      code: 'event_expired',
      status: 410,
    });
  });
});

describe('sendTestEvent', () => {
  it('sends a signed event marked test in the envelope, with the full sample of the type as data', async () => {
    // Arrange
    const sent: { body: string; headers: Record<string, string> }[] = [];
    const deps = {
      now: () => T0,
      send: async (_url: string, body: string, headers: Record<string, string>) => {
        sent.push({ body, headers });
        return { ok: true, statusCode: 204, durationMs: 12, error: null };
      },
    };

    // Act
    const result = await sendTestEvent(deps, endpoint(), 'vehicle.fuel_low', false);

    // Assess
    const body = JSON.parse(sent[0]?.body ?? '{}');
    expect(result).toMatchObject({ delivered: true, status_code: 204, event: { type: 'vehicle.fuel_low' } });
    expect(body).toMatchObject({ type: 'vehicle.fuel_low', test: true, sequence: 0, fleet_id: 'flt_A' });
    expect(body.data).toEqual(testEventData('vehicle.fuel_low', T0, 'flt_A'));
    expect(body.data).not.toHaveProperty('test');
    const verified = verifyWebhookSignature({
      rawBody: sent[0]?.body ?? '',
      header: sent[0]?.headers['X-Service-Signature'] ?? '',
      secrets: 'whsec_current',
      nowSeconds: T0 / 1000,
    });
    expect(verified.ok).toBe(true);
  });
});
