import type { DeliveryMessage } from '../domain/webhooks/delivery.ts';
import { deadLetterQueue, deliveryQueue, retryScheduler } from '../platform/adapters/delivery-pipeline.ts';
import { config } from '../platform/config.ts';
import { sendWebhook } from '../platform/webhook-sender.ts';
import { type DeliveryDeps, fanOut } from '../usecases/webhook-delivery.ts';
import { createCursorCodec } from './cursor.ts';
import { documentClient } from './dynamo-client.ts';
import { createEventRecorder, type EventRecorder } from './events.ts';
import { createWebhookDeliveryStore } from './webhook-deliveries.ts';
import { createWebhookEndpointStore } from './webhook-endpoints.ts';

let cached: DeliveryDeps | undefined;

/** What fan-out and the dispatcher need, built once per container from the environment. */
export function deliveryDeps(): DeliveryDeps {
  if (cached) return cached;
  const { tableName, cursorSigningKey, allowPrivateWebhookTargets } = config();
  const client = documentClient();
  const cursors = createCursorCodec(cursorSigningKey);
  cached = {
    endpoints: createWebhookEndpointStore(client, tableName, cursors),
    deliveries: createWebhookDeliveryStore(client, tableName, cursors),
    queue: deliveryQueue<DeliveryMessage>(),
    retries: retryScheduler<DeliveryMessage>(),
    deadLetters: deadLetterQueue<DeliveryMessage>(),
    send: (url, body, headers) =>
      sendWebhook(url, body, headers, { allowPrivate: allowPrivateWebhookTargets }),
    now: Date.now,
  };
  return cached;
}

let recorder: EventRecorder | undefined;

/**
 * The events module every feature records through: stores the event under its fleet's sequence
 * and fans it out to the subscribed endpoints.
 */
export function eventRecorder(): EventRecorder {
  const { tableName, stage } = config();
  recorder ??= createEventRecorder(documentClient(), tableName, stage, Date.now, (event, partnerId) =>
    fanOut(deliveryDeps(), event, partnerId),
  );
  return recorder;
}
