import type { EventRecorder } from '#shared/events/usecases/event-recording.ts';
import { eventRecorderOn } from '#shared/events/wiring/events.ts';
import { createIntegrationCounterStore } from '#shared/integration-health/store/integration-counters.ts';
import type { WebhookTargetPolicy } from '#shared/platform/url-guard.ts';
import { sendWebhook } from '#shared/platform/webhook-sender.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { queuesOf, sendingTo } from '#shared/wiring/message-queues.ts';
import { createWebhookDeliveryStore } from '../store/webhook-deliveries.ts';
import { createWebhookEndpointStore } from '../store/webhook-endpoints.ts';
import { type DeliveryDeps, fanOut } from '../usecases/webhook-delivery.ts';
import type { WebhookEndpointDeps } from '../usecases/webhook-endpoints.ts';
import { deliveryRetriesOf } from './retry-scheduler.ts';

/** The webhook endpoint use cases' dependencies. */
export const webhookEndpointDeps = /* @__PURE__ */ perInfrastructure(
  ({ client, config, cursors, clock }): WebhookEndpointDeps => ({
    endpoints: createWebhookEndpointStore(client, config.tableName, cursors),
    clock,
    targets: config.webhookTargets,
    ...(config.localStack
      ? { widerTargetsHint: (wider: WebhookTargetPolicy) => localTargetsHint(config.webhookTargets, wider) }
      : {}),
  }),
);

/**
 * The local stack's hint for a webhook url that a wider policy would accept: how to restart the
 * stack with it (docs/local-stack.md, "Webhooks on your machine").
 *
 * @example
 * localTargetsHint('loopback', 'private');
 * // 'this local stack delivers to public receivers and to receivers on this machine: restart it with …'
 */
export function localTargetsHint(current: WebhookTargetPolicy, wider: WebhookTargetPolicy): string {
  const accepted =
    current === 'public'
      ? 'public HTTPS receivers only (it was started with `--webhook-targets public`, the deployed rule)'
      : 'public receivers and to receivers on this machine (127.0.0.1, ::1, localhost)';
  const how =
    wider === 'loopback'
      ? 'restart it with plain `npm start` to deliver to receivers on this machine, such as `npm run webhooks:listen`'
      : 'restart it with `npm start -- --webhook-targets private` (or WEBHOOK_TARGETS=private) to deliver to private-network addresses too';
  return `this local stack delivers to ${accepted}: ${how}`;
}

/**
 * What fan-out needs: the endpoints, the delivery records and the queue.
 * Apart from the sender, so the many functions that record events bundle no HTTP client or
 * address guard: only the dispatcher, replays and test sends send.
 */
export const fanOutDeps = /* @__PURE__ */ perInfrastructure(
  (infra): Pick<DeliveryDeps, 'endpoints' | 'deliveries' | 'queue' | 'now'> => ({
    endpoints: webhookEndpointDeps(infra).endpoints,
    deliveries: createWebhookDeliveryStore(infra.client, infra.config.tableName, infra.cursors),
    // Queues and the scheduler are resolved when first used, so a call that fails its checks first
    // (an unknown endpoint) needs none of them.
    queue: sendingTo(() => queuesOf(infra).deliveries()),
    now: infra.clock.now,
  }),
);

/**
 * The delivery log (GET …/deliveries): the endpoints and their delivery records. Not taken from
 * fanOutDeps, whose queue would bring the SQS client's chunk into a read.
 */
export const deliveryLogDeps = /* @__PURE__ */ perInfrastructure(
  (infra): Pick<DeliveryDeps, 'endpoints' | 'deliveries'> => ({
    endpoints: webhookEndpointDeps(infra).endpoints,
    deliveries: createWebhookDeliveryStore(infra.client, infra.config.tableName, infra.cursors),
  }),
);

/** What the dispatcher, replays and test sends need besides. */
export const deliveryDeps = /* @__PURE__ */ perInfrastructure((infra): DeliveryDeps => {
  const { client, config } = infra;
  return {
    ...fanOutDeps(infra),
    retries: { scheduleOnce: (...retry) => deliveryRetriesOf(infra).scheduleOnce(...retry) },
    deadLetters: sendingTo(() => queuesOf(infra).deliveryDeadLetters()),
    send: (url, body, headers) => sendWebhook(url, body, headers, { targets: config.webhookTargets }),
    healthCounters: createIntegrationCounterStore(client, config.tableName),
  };
});

/**
 * The events module every feature records through: stores the event under its fleet's sequence
 * and fans it out to the subscribed endpoints.
 */
export const eventRecorder = /* @__PURE__ */ perInfrastructure(
  (infra): EventRecorder =>
    eventRecorderOn(
      infra.client,
      infra.config.tableName,
      infra.config.stage,
      infra.clock.now,
      (event, partnerId) => fanOut(fanOutDeps(infra), event, partnerId),
    ),
);
