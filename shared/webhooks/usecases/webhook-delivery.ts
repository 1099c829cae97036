import { type EventEnvelope, eventBody } from '#shared/events/domain/envelope.ts';
import { EVENT_API_VERSION, EVENT_RETENTION_DAYS, type EventType } from '#shared/events/domain/events.ts';
import type { IntegrationCounterStore } from '#shared/integration-health/store/integration-counters.ts';
import { newId, stableId } from '#shared/kernel/ids.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { logger } from '#shared/platform/observability.ts';
import type { MessageQueue } from '#shared/platform/ports/queue.ts';
import type { OneTimeScheduler } from '#shared/platform/ports/scheduler.ts';
import { WEBHOOK_USER_AGENT, type WebhookSendResult } from '#shared/platform/webhook-sender.ts';
import type { DeliveryMessage, WebhookDelivery } from '../domain/delivery.ts';
import { signingSecrets, subscribes, type WebhookEndpoint, type WebhookOwner } from '../domain/endpoint.ts';
import { nextRetryDelaySeconds, shouldAutoDisable } from '../domain/retry-schedule.ts';
import { signPayload } from '../domain/signature.ts';
import type { WebhookDeliveryStore } from '../store/webhook-deliveries.ts';
import type { WebhookEndpointStore } from '../store/webhook-endpoints.ts';
import { testEventData } from './webhook-test-samples.ts';

export interface DeliveryDeps {
  endpoints: WebhookEndpointStore;
  deliveries: WebhookDeliveryStore;
  queue: MessageQueue<DeliveryMessage>;
  retries: OneTimeScheduler<DeliveryMessage>;
  deadLetters: MessageQueue<DeliveryMessage>;
  send: (url: string, body: string, headers: Record<string, string>) => Promise<WebhookSendResult>;
  now: () => number;
  random?: () => number;
  /** The health scorecard's per-endpoint hourly delivery counters (one update per attempt). */
  healthCounters: Pick<IntegrationCounterStore, 'recordDeliveryAttempt'>;
}

/** The delivery headers (docs/api-guide.md#events-and-webhooks), signed over the exact body with every valid secret. */
export function deliveryHeaders(
  event: { id: string; type: string },
  body: string,
  secrets: string[],
  nowMs: number,
) {
  return {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    'X-Service-Event-Id': event.id,
    'X-Service-Event-Type': event.type,
    'X-Service-Signature': signPayload(secrets, body, Math.floor(nowMs / 1000)),
  };
}

function newDelivery(
  owner: WebhookOwner,
  endpoint: WebhookEndpoint,
  event: EventEnvelope,
  body: string,
  nowMs: number,
  isReplay: boolean,
): WebhookDelivery {
  return {
    id: newId('webhookDelivery', nowMs),
    owner,
    endpointId: endpoint.id,
    eventId: event.id,
    eventType: event.type,
    fleetId: event.fleet_id,
    body,
    status: 'pending',
    attempts: 0,
    lastStatusCode: null,
    lastError: null,
    lastDurationMs: null,
    isReplay,
    createdAt: formatTimestamp(nowMs),
    lastAttemptAt: null,
    nextRetryAt: null,
    completedAt: null,
    eventExpiresAtMs: Date.parse(event.occurred_at) + EVENT_RETENTION_DAYS * 86_400_000,
  };
}

/**
 * Fan-out: one delivery per active endpoint subscribed to the type, the fleet's and (for
 * `fleet.provisioned`) the provisioning partner's, each queued for the dispatcher. Every delivery
 * of an event carries the same bytes, so receivers can de-duplicate on the event id.
 */
export async function fanOut(
  deps: Pick<DeliveryDeps, 'endpoints' | 'deliveries' | 'queue' | 'now'>,
  event: EventEnvelope,
  partnerId: string | null,
): Promise<WebhookDelivery[]> {
  const owners: WebhookOwner[] = [{ kind: 'fleet', fleetId: event.fleet_id }];
  if (partnerId && event.type === 'fleet.provisioned') owners.push({ kind: 'partner', partnerId });
  // The same text the event is stored with, so GET /v1/events/{id} answers these bytes.
  const body = eventBody(event);
  const nowMs = deps.now();
  const deliveries: WebhookDelivery[] = [];
  for (const owner of owners) {
    for (const endpoint of await deps.endpoints.all(owner)) {
      if (endpoint.status === 'active' && subscribes(endpoint, event.type as EventType)) {
        deliveries.push(newDelivery(owner, endpoint, event, body, nowMs, false));
      }
    }
  }
  if (deliveries.length === 0) return [];
  await deps.deliveries.create(deliveries);
  await deps.queue.send(
    deliveries.map((d) => ({ owner: d.owner, deliveryId: d.id, endpointId: d.endpointId, attempt: 1 })),
  );
  return deliveries;
}

/** A replay: the same event (same id, same bytes) as a new delivery marked `is_replay`. */
export async function replayDelivery(
  deps: Pick<DeliveryDeps, 'deliveries' | 'queue' | 'now'>,
  endpoint: WebhookEndpoint,
  original: WebhookDelivery,
): Promise<WebhookDelivery> {
  const nowMs = deps.now();
  if (nowMs >= original.eventExpiresAtMs) {
    throw new ApiError(
      'event_expired',
      `Event ${original.eventId} is past its ${EVENT_RETENTION_DAYS}-day replay window.`,
    );
  }
  const replay: WebhookDelivery = {
    ...newDelivery(
      original.owner,
      endpoint,
      JSON.parse(original.body) as EventEnvelope,
      original.body,
      nowMs,
      true,
    ),
  };
  await deps.deliveries.create([replay]);
  await deps.queue.send([
    { owner: replay.owner, deliveryId: replay.id, endpointId: replay.endpointId, attempt: 1 },
  ]);
  return replay;
}

/**
 * One attempt, as the dispatcher runs it for a queue message. Idempotent on redelivery: a
 * delivery already finished is left alone. Failures schedule the next attempt on the published
 * schedule; after the last one the delivery is `failed` and goes to the dead-letter queue.
 */
export async function attemptDelivery(
  deps: DeliveryDeps,
  message: DeliveryMessage,
): Promise<WebhookDelivery | null> {
  const delivery = await deps.deliveries.get(message.owner, message.endpointId, message.deliveryId);
  if (!delivery || delivery.status === 'succeeded' || delivery.status === 'failed') return delivery;
  // SQS may deliver a message twice, and a stale retry may arrive late: only the attempt the
  // delivery is waiting for runs.
  if (message.attempt !== delivery.attempts + 1) return delivery;
  const nowMs = deps.now();
  const endpoint = await deps.endpoints.get(message.owner, message.endpointId);
  if (endpoint?.status !== 'active') {
    const failed = finish(delivery, 'failed', nowMs, endpoint ? 'endpoint disabled' : 'endpoint deleted');
    return (await deps.deliveries.save(failed, delivery.attempts)) ? failed : delivery;
  }

  const event = JSON.parse(delivery.body) as { id: string; type: string };
  const result = await deps.send(
    endpoint.url,
    delivery.body,
    deliveryHeaders(event, delivery.body, signingSecrets(endpoint, nowMs), nowMs),
  );
  const attempted: WebhookDelivery = {
    ...delivery,
    attempts: delivery.attempts + 1,
    lastStatusCode: result.statusCode,
    lastError: result.ok ? null : (result.error ?? `receiver answered ${result.statusCode}`),
    lastDurationMs: result.durationMs,
    lastAttemptAt: formatTimestamp(nowMs),
  };

  if (result.ok) {
    const succeeded = finish(attempted, 'succeeded', nowMs, null);
    if (!(await deps.deliveries.save(succeeded, delivery.attempts))) return delivery;
    await countAttempt(deps, message.owner, endpoint.id, nowMs, true);
    await deps.endpoints.recordSuccess(message.owner, endpoint.id, nowMs);
    return succeeded;
  }

  const delaySeconds = nextRetryDelaySeconds(attempted.attempts, deps.random);
  if (delaySeconds === null) {
    const failed = finish(attempted, 'failed', nowMs, attempted.lastError);
    if (!(await deps.deliveries.save(failed, delivery.attempts))) return delivery;
    await countAttempt(deps, message.owner, endpoint.id, nowMs, false);
    await deps.deadLetters.send([message]);
    await deps.endpoints.recordExhausted(message.owner, endpoint.id, (consecutive, healthySinceMs) =>
      shouldAutoDisable(
        { consecutiveFailedDeliveries: consecutive, healthySinceMs, trigger: 'delivery' },
        nowMs,
      )
        ? `auto-disabled after ${consecutive} failed deliveries in a row`
        : null,
    );
    return failed;
  }
  const retryAt = new Date(nowMs + delaySeconds * 1000);
  const retrying: WebhookDelivery = {
    ...attempted,
    status: 'retrying',
    nextRetryAt: formatTimestamp(retryAt),
  };
  if (!(await deps.deliveries.save(retrying, delivery.attempts))) return delivery;
  await countAttempt(deps, message.owner, endpoint.id, nowMs, false);
  const next = attempted.attempts + 1;
  await deps.retries.scheduleOnce(`${delivery.id}-attempt-${next}`, retryAt, { ...message, attempt: next });
  return retrying;
}

/**
 * Counts a stored attempt for the fleet's health scorecard. Partner-level endpoints belong to no
 * fleet's scorecard. A counter that cannot be written is logged, never retried: the attempt is
 * stored, and redelivering it for a statistic would send the receiver the event twice.
 */
async function countAttempt(
  deps: Pick<DeliveryDeps, 'healthCounters'>,
  owner: WebhookOwner,
  endpointId: string,
  nowMs: number,
  succeeded: boolean,
) {
  if (owner.kind !== 'fleet') return;
  try {
    await deps.healthCounters.recordDeliveryAttempt(owner.fleetId, endpointId, nowMs, succeeded);
  } catch (error) {
    logger.warn('Webhook delivery not counted for integration health', { endpointId, error });
  }
}

function finish(
  delivery: WebhookDelivery,
  status: 'succeeded' | 'failed',
  nowMs: number,
  error: string | null,
): WebhookDelivery {
  return { ...delivery, status, nextRetryAt: null, completedAt: formatTimestamp(nowMs), lastError: error };
}

/**
 * POST /v1/webhooks/{id}/test: a signed event sent now, outside the event sequence, whatever the
 * endpoint's status. Its `data` is a realistic sample with every published member of the type
 * (webhook-test-samples.ts), so a receiver can be built and tried against it; the envelope says it
 * is a test (`test: true`, `sequence: 0`), never `data`, which keeps exactly the type's members.
 * It never counts toward auto-disabling and leaves no delivery record; the result is returned and
 * logged.
 */
export async function sendTestEvent(
  deps: Pick<DeliveryDeps, 'send' | 'now'>,
  endpoint: WebhookEndpoint,
  type: string,
  sandbox: boolean,
) {
  const nowMs = deps.now();
  // A partner-level endpoint gets the fleet a fleet.provisioned would name: a sample one.
  const fleetId =
    endpoint.owner.kind === 'fleet' ? endpoint.owner.fleetId : stableId('fleet', 'test-send:fleet');
  const event = {
    id: newId('event', nowMs),
    type,
    api_version: EVENT_API_VERSION,
    sandbox,
    test: true,
    sequence: 0,
    occurred_at: formatTimestamp(nowMs),
    fleet_id: fleetId,
    data: testEventData(type, nowMs, fleetId),
  };
  const body = JSON.stringify(event);
  const result = await deps.send(
    endpoint.url,
    body,
    deliveryHeaders(event, body, signingSecrets(endpoint, nowMs), nowMs),
  );
  return {
    delivered: result.ok,
    status_code: result.statusCode,
    duration_ms: result.durationMs,
    error: result.ok ? null : (result.error ?? `receiver answered ${result.statusCode}`),
    event: { id: event.id, type },
  };
}
