/**
 * The Fleet Fuel Guidance TypeScript client (docs/typescript-client.md): the generated types of
 * openapi.json, openapi-fetch as the runtime, and what every integrator otherwise writes by hand.
 */
export { createFleetFuelClient, type FleetFuelClient, type FleetFuelClientOptions } from './client.ts';
export { type FieldError, FleetFuelApiError, type Problem } from './errors.ts';
export { ext } from './ext.ts';
export type { components, operations, paths, webhooks } from './generated/api.ts';
export { IDEMPOTENCY_HEADER, requiresIdempotencyKey } from './idempotency.ts';
export { type CursorPage, paginate } from './pagination.ts';
export { DEFAULT_RETRY, isRetryable, type RetryOptions } from './retry.ts';
export {
  isWebhookEventType,
  parseWebhookEvent,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
  WebhookPayloadError,
} from './webhook-events.ts';
export * from './webhooks.ts';
