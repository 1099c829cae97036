import { ANY_KEY, routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import {
  createWebhookBody,
  deliveryPage,
  deliveryParams,
  deliverySchema,
  eventTypesSchema,
  listDeliveriesQuery,
  listWebhooksQuery,
  testWebhookBody,
  testWebhookResult,
  updateWebhookBody,
  webhookIdParams,
  webhookPage,
  webhookSchema,
  webhookWithSecretSchema,
} from './schemas.ts';

const webhookOperation = routeGroup({
  tags: ['Webhooks'],
  handlers: 'functions/http/webhooks',
  access: 'fleetOrPartner',
  scope: 'webhooks:manage',
  family: 'webhooks',
  role: 'api',
  idempotent: false,
});

/** The catalog is the same for every caller: any valid key, not counted. */
const catalogOperation = routeGroup({ tags: ['Webhooks'], handlers: 'functions/http/webhooks', ...ANY_KEY });

export const listEventTypesOperation = /* @__PURE__ */ catalogOperation({
  operationId: 'listEventTypes',
  route: 'GET /v1/webhooks/event-types',
  summary: 'The event catalog: the only event types endpoints may subscribe to',
  responses: [{ status: 200, description: 'Every event type with a description', schema: eventTypesSchema }],
});

export const createWebhookOperation = /* @__PURE__ */ webhookOperation({
  operationId: 'createWebhook',
  route: 'POST /v1/webhooks',
  summary: 'Register a webhook endpoint; the signing secret is shown once',
  request: { body: createWebhookBody },
  responses: [
    { status: 201, description: 'The endpoint with its one-time secret', schema: webhookWithSecretSchema },
  ],
});

export const listWebhooksOperation = /* @__PURE__ */ webhookOperation({
  operationId: 'listWebhooks',
  route: 'GET /v1/webhooks',
  summary: 'List webhook endpoints (never with secrets)',
  request: { query: listWebhooksQuery },
  responses: [{ status: 200, description: 'Endpoints, oldest first', schema: webhookPage }],
});

export const getWebhookOperation = /* @__PURE__ */ webhookOperation({
  operationId: 'getWebhook',
  route: 'GET /v1/webhooks/{id}',
  summary: 'Get a webhook endpoint (never with its secret)',
  request: { params: webhookIdParams },
  responses: [{ status: 200, description: 'The endpoint', schema: webhookSchema }],
});

export const updateWebhookOperation = /* @__PURE__ */ webhookOperation({
  operationId: 'updateWebhook',
  route: 'PATCH /v1/webhooks/{id}',
  summary: 'Change url, event_types, description or status (active / disabled)',
  request: { params: webhookIdParams, body: updateWebhookBody },
  responses: [{ status: 200, description: 'The updated endpoint', schema: webhookSchema }],
});

export const deleteWebhookOperation = /* @__PURE__ */ webhookOperation({
  operationId: 'deleteWebhook',
  route: 'DELETE /v1/webhooks/{id}',
  summary: 'Delete a webhook endpoint',
  request: { params: webhookIdParams },
  responses: [{ status: 204, description: 'Deleted' }],
});

export const rotateWebhookSecretOperation = /* @__PURE__ */ webhookOperation({
  operationId: 'rotateWebhookSecret',
  route: 'POST /v1/webhooks/{id}/rotate-secret',
  summary: 'Issue a new signing secret, shown once; the previous one stays valid for 24 hours',
  description: 'While both are valid, every delivery carries one `v1=` signature per valid secret.',
  request: { params: webhookIdParams },
  responses: [
    {
      status: 200,
      description: 'The endpoint with its new one-time secret',
      schema: webhookWithSecretSchema,
    },
  ],
});

export const listWebhookDeliveriesOperation = /* @__PURE__ */ webhookOperation({
  operationId: 'listWebhookDeliveries',
  route: 'GET /v1/webhooks/{id}/deliveries',
  summary: 'The delivery log of an endpoint, newest first',
  request: { params: webhookIdParams, query: listDeliveriesQuery },
  responses: [{ status: 200, description: 'Deliveries', schema: deliveryPage }],
});

export const replayWebhookDeliveryOperation = /* @__PURE__ */ webhookOperation({
  operationId: 'replayWebhookDelivery',
  route: 'POST /v1/webhooks/{id}/deliveries/{deliveryId}/replay',
  summary: 'Re-send the same event (same evt_ id and bytes) as a new delivery marked is_replay',
  request: { params: deliveryParams },
  responses: [{ status: 202, description: 'The new delivery, queued', schema: deliverySchema }],
  errors: ['event_expired'],
});

export const testWebhookOperation = /* @__PURE__ */ webhookOperation({
  operationId: 'testWebhook',
  route: 'POST /v1/webhooks/{id}/test',
  summary: 'Send a signed canned event now and report how the receiver answered',
  description:
    'Without a body, the endpoint’s first subscribed type is used (`guidance.updated` for `["*"]`). A test send never disables an endpoint and is not part of the event sequence: its envelope carries `test: true` and `sequence: 0`, and its `data` is a realistic sample with every data field the type publishes (GET /v1/webhooks/event-types).',
  request: { params: webhookIdParams, body: testWebhookBody, bodyRequired: false },
  responses: [{ status: 200, description: 'The receiver’s answer', schema: testWebhookResult }],
});

export const webhookOperations = {
  listEventTypes: listEventTypesOperation,
  createWebhook: createWebhookOperation,
  listWebhooks: listWebhooksOperation,
  getWebhook: getWebhookOperation,
  updateWebhook: updateWebhookOperation,
  deleteWebhook: deleteWebhookOperation,
  rotateWebhookSecret: rotateWebhookSecretOperation,
  listWebhookDeliveries: listWebhookDeliveriesOperation,
  replayWebhookDelivery: replayWebhookDeliveryOperation,
  testWebhook: testWebhookOperation,
} satisfies Record<string, RouteDefinition>;
