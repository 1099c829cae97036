import { dataFieldsOf } from '#shared/events/api/event-data-schemas.ts';
import { EVENT_CATALOG } from '#shared/events/domain/events.ts';
import type { WebhookDelivery } from '../domain/delivery.ts';
import type { WebhookEndpoint } from '../domain/endpoint.ts';

// Member order here is the order on the wire; create responses and GETs both come through these
// functions, which is what makes them agree byte for byte.

/** Never includes a secret: those appear only in the create and rotate responses. */
export function webhookResource(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    event_types: endpoint.eventTypes,
    description: endpoint.description,
    status: endpoint.status,
    disabled_reason: endpoint.disabledReason,
    level: endpoint.owner.kind,
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
  };
}

/** The create and rotate responses: the endpoint and its new signing secret, shown this once. */
export function webhookWithSecretResource(endpoint: WebhookEndpoint, secret: string) {
  return { ...webhookResource(endpoint), secret };
}

export function deliveryResource(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    endpoint_id: delivery.endpointId,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    last_duration_ms: delivery.lastDurationMs,
    is_replay: delivery.isReplay,
    created_at: delivery.createdAt,
    last_attempt_at: delivery.lastAttemptAt,
    next_retry_at: delivery.nextRetryAt,
    completed_at: delivery.completedAt,
  };
}

/** GET /v1/webhooks/event-types: the catalog, with the members each type's `data` carries. */
export function eventTypesResource() {
  return {
    data: EVENT_CATALOG.map(({ type, description }) => ({
      type,
      description,
      data_fields: dataFieldsOf(type),
    })),
  };
}
