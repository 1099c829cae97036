import type { webhooks } from './generated/api.ts';
import { WEBHOOK_EVENT_TYPES } from './generated/webhook-event-types.ts';

/**
 * The events a webhook delivers, typed from openapi.json's `webhooks` section: one envelope per
 * event type, whose `data` is that type's own. Narrow a {@link WebhookEvent} by `type`:
 *
 * @example
 * const event = parseWebhookEvent(rawBody); // after verifyWebhookSignature
 * if (event.type === 'fueling.matched') console.log(event.data.station.name, event.data.gallons);
 */

/** Every event type openapi.json publishes a webhook for. */
export type WebhookEventType = keyof webhooks;

/** The envelope a delivery of `T` carries: the request body of `webhooks[T]`. */
export type WebhookEventOf<T extends WebhookEventType> = NonNullable<
  webhooks[T]['post']
>['requestBody']['content']['application/json'];

/** Any event's envelope, a union told apart by `type`. */
export type WebhookEvent = { [T in WebhookEventType]: WebhookEventOf<T> }[WebhookEventType];

export { WEBHOOK_EVENT_TYPES };

const knownTypes: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

/** Whether `type` is one this client was generated with. */
export function isWebhookEventType(type: unknown): type is WebhookEventType {
  return typeof type === 'string' && knownTypes.has(type);
}

/** A body that is not an event envelope, or one of a type newer than this client. */
export class WebhookPayloadError extends Error {
  override readonly name = 'WebhookPayloadError';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A delivery's raw body as a typed event. Verify the signature on these very bytes first
 * (`verifyWebhookSignature`); this checks that the body is an envelope (an object with `id`,
 * `type`, `sequence` and a `data` object) of a type this client knows, not every member of
 * `data`. A type added to the catalog after this client was generated throws
 * {@link WebhookPayloadError}: acknowledge such a delivery (2xx) and regenerate the client.
 */
export function parseWebhookEvent(rawBody: string): WebhookEvent {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw new WebhookPayloadError('The webhook body is not JSON.');
  }
  if (
    !isObject(body) ||
    typeof body.id !== 'string' ||
    typeof body.sequence !== 'number' ||
    !isObject(body.data)
  ) {
    throw new WebhookPayloadError('The webhook body is not an event envelope (id, type, sequence, data).');
  }
  if (!isWebhookEventType(body.type)) {
    throw new WebhookPayloadError(
      `Unknown event type ${JSON.stringify(body.type)}: newer than this client; regenerate it from openapi.json.`,
    );
  }
  return body as WebhookEvent;
}
