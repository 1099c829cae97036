import { routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { eventEnvelopeSchema, eventIdParams, eventPage, listEventsQuery } from './schemas.ts';

/**
 * The events feed (beyond the spec, additive under section 9): the events webhooks deliver, read
 * back so a receiver that sees a gap in `sequence` can fetch what it missed. Same scope and quota
 * family as the webhooks; fleet-scoped, so a partner key names the fleet in SVC-Fleet (the fleet's
 * `fleet.provisioned` is its first event, sequence 1).
 */
const eventOperation = routeGroup({
  tags: ['Events'],
  handlers: 'functions/http/events',
  access: 'fleet',
  scope: 'webhooks:manage',
  family: 'webhooks',
  role: 'api',
  idempotent: false,
});

export const listEventsOperation = /* @__PURE__ */ eventOperation({
  operationId: 'listEvents',
  route: 'GET /v1/events',
  summary: 'The fleet’s events in sequence order, within the replay window',
  description:
    'Recovery after a gap in `sequence`: pass the last sequence you processed as `after_sequence` and de-duplicate by event `id` (docs/events-feed.md). Each item is the envelope exactly as delivered.',
  request: { query: listEventsQuery },
  responses: [{ status: 200, description: 'Events, lowest sequence first', schema: eventPage }],
});

export const getEventOperation = /* @__PURE__ */ eventOperation({
  operationId: 'getEvent',
  route: 'GET /v1/events/{id}',
  summary: 'One event, byte for byte as its webhook deliveries carried it',
  description:
    'The body is the exact text that was signed and delivered, so a signature computed over a delivery also matches it.',
  request: { params: eventIdParams },
  responses: [{ status: 200, description: 'The event envelope', schema: eventEnvelopeSchema }],
  errors: ['event_expired'],
});

export const eventOperations = {
  listEvents: listEventsOperation,
  getEvent: getEventOperation,
} satisfies Record<string, RouteDefinition>;
