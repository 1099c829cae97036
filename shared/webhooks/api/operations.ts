import { ANY_KEY, routeGroup } from '#shared/api/route-group.ts';
import { defineRoute, type RouteDefinition } from '#shared/platform/http/route-definition.ts';
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

const webhookRoute = routeGroup({
  tags: ['Webhooks'],
  access: 'fleetOrPartner',
  scope: 'webhooks:manage',
  family: 'webhooks',
  role: 'api',
  idempotent: false,
});

export const listEventTypesOperation = /* @__PURE__ */ defineRoute({
  operationId: 'listEventTypes',
  method: 'GET',
  path: '/v1/webhooks/event-types',
  summary: 'The event catalog: the only event types endpoints may subscribe to',
  tags: ['Webhooks'],
  ...ANY_KEY,
  request: {},
  responses: [{ status: 200, description: 'Every event type with a description', schema: eventTypesSchema }],
  handler: 'functions/http/webhooks/list-event-types.ts',
});

export const createWebhookOperation = /* @__PURE__ */ webhookRoute({
  operationId: 'createWebhook',
  method: 'POST',
  path: '/v1/webhooks',
  summary: 'Register a webhook endpoint; the signing secret is shown once',
  request: { body: createWebhookBody },
  responses: [
    { status: 201, description: 'The endpoint with its one-time secret', schema: webhookWithSecretSchema },
  ],
  handler: 'functions/http/webhooks/create-webhook.ts',
});

export const listWebhooksOperation = /* @__PURE__ */ webhookRoute({
  operationId: 'listWebhooks',
  method: 'GET',
  path: '/v1/webhooks',
  summary: 'List webhook endpoints (never with secrets)',
  request: { query: listWebhooksQuery },
  responses: [{ status: 200, description: 'Endpoints, oldest first', schema: webhookPage }],
  handler: 'functions/http/webhooks/list-webhooks.ts',
});

export const getWebhookOperation = /* @__PURE__ */ webhookRoute({
  operationId: 'getWebhook',
  method: 'GET',
  path: '/v1/webhooks/{id}',
  summary: 'Get a webhook endpoint (never with its secret)',
  request: { params: webhookIdParams },
  responses: [{ status: 200, description: 'The endpoint', schema: webhookSchema }],
  handler: 'functions/http/webhooks/get-webhook.ts',
});

export const updateWebhookOperation = /* @__PURE__ */ webhookRoute({
  operationId: 'updateWebhook',
  method: 'PATCH',
  path: '/v1/webhooks/{id}',
  summary: 'Change url, event_types, description or status (active / disabled)',
  request: { params: webhookIdParams, body: updateWebhookBody },
  responses: [{ status: 200, description: 'The updated endpoint', schema: webhookSchema }],
  handler: 'functions/http/webhooks/update-webhook.ts',
});

export const deleteWebhookOperation = /* @__PURE__ */ webhookRoute({
  operationId: 'deleteWebhook',
  method: 'DELETE',
  path: '/v1/webhooks/{id}',
  summary: 'Delete a webhook endpoint',
  request: { params: webhookIdParams },
  responses: [{ status: 204, description: 'Deleted' }],
  handler: 'functions/http/webhooks/delete-webhook.ts',
});

export const rotateWebhookSecretOperation = /* @__PURE__ */ webhookRoute({
  operationId: 'rotateWebhookSecret',
  method: 'POST',
  path: '/v1/webhooks/{id}/rotate-secret',
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
  handler: 'functions/http/webhooks/rotate-webhook-secret.ts',
});

export const listWebhookDeliveriesOperation = /* @__PURE__ */ webhookRoute({
  operationId: 'listWebhookDeliveries',
  method: 'GET',
  path: '/v1/webhooks/{id}/deliveries',
  summary: 'The delivery log of an endpoint, newest first',
  request: { params: webhookIdParams, query: listDeliveriesQuery },
  responses: [{ status: 200, description: 'Deliveries', schema: deliveryPage }],
  handler: 'functions/http/webhooks/list-webhook-deliveries.ts',
});

export const replayWebhookDeliveryOperation = /* @__PURE__ */ webhookRoute({
  operationId: 'replayWebhookDelivery',
  method: 'POST',
  path: '/v1/webhooks/{id}/deliveries/{deliveryId}/replay',
  summary: 'Re-send the same event (same evt_ id and bytes) as a new delivery marked is_replay',
  request: { params: deliveryParams },
  responses: [{ status: 202, description: 'The new delivery, queued', schema: deliverySchema }],
  errors: ['event_expired'],
  handler: 'functions/http/webhooks/replay-webhook-delivery.ts',
});

export const testWebhookOperation = /* @__PURE__ */ webhookRoute({
  operationId: 'testWebhook',
  method: 'POST',
  path: '/v1/webhooks/{id}/test',
  summary: 'Send a signed canned event now and report how the receiver answered',
  description:
    'Without a body, the endpoint’s first subscribed type is used (`guidance.updated` for `["*"]`). A test send never disables an endpoint and is not part of the event sequence: its envelope carries `test: true` and `sequence: 0`, and its `data` is a realistic sample with every data field the type publishes (GET /v1/webhooks/event-types).',
  request: { params: webhookIdParams, body: testWebhookBody, bodyRequired: false },
  responses: [{ status: 200, description: 'The receiver’s answer', schema: testWebhookResult }],
  handler: 'functions/http/webhooks/test-webhook.ts',
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
