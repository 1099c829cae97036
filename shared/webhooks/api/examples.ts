import { type ExamplesFor, rejected } from '#shared/api/example.ts';
import { IDS, NOW, WEBHOOK_CREATED_AT } from '#shared/api/example-fixtures.ts';
import { EVENT_RETENTION_DAYS } from '#shared/events/domain/events.ts';
import { ApiError } from '#shared/platform/errors.ts';
import type { webhookOperations } from './operations.ts';
import { createWebhookBody, updateWebhookBody } from './schemas.ts';
import { eventTypesResource } from './serializers.ts';

const endpoint = {
  id: IDS.webhook,
  url: 'https://tms.redriverfreight.example/hooks/fleet-fuel',
  event_types: ['guidance.updated', 'guidance.stop_approaching', 'vehicle.fuel_low'],
  description: 'Dispatch board: fuel stops and low-fuel alerts',
  status: 'active',
  disabled_reason: null,
  level: 'fleet',
  created_at: WEBHOOK_CREATED_AT,
  updated_at: WEBHOOK_CREATED_AT,
};

/** An example secret in the real format (`whsec_` + 43 base64url characters); never a live one. */
const secret = 'whsec_Zk3mQ9vT2xLr8YpN4cWd7HsB1uEa6JfGo5KiR0tVyXq';

const delivery = {
  id: IDS.delivery,
  endpoint_id: IDS.webhook,
  event_id: IDS.event,
  event_type: 'guidance.updated',
  status: 'succeeded',
  attempts: 1,
  last_status_code: 200,
  last_error: null,
  last_duration_ms: 184,
  is_replay: false,
  created_at: '2026-11-21T21:48:04.020000Z',
  last_attempt_at: '2026-11-21T21:48:04.231000Z',
  next_retry_at: null,
  completed_at: '2026-11-21T21:48:04.415000Z',
};

const byId = { id: IDS.webhook };
const missing = new ApiError('resource_not_found', `Webhook endpoint ${IDS.webhook} was not found.`);

export const webhookExamples = {
  listEventTypes: {
    // The first entries of the real catalog (the serializer GET /v1/webhooks/event-types answers with).
    responses: { 200: { data: eventTypesResource().data.slice(0, 2) } },
    problem: new ApiError('missing_api_key', 'The Authorization header is missing.'),
  },
  createWebhook: {
    request: {
      body: { url: endpoint.url, event_types: endpoint.event_types, description: endpoint.description },
    },
    responses: { 201: { ...endpoint, secret } },
    problem: rejected('body', createWebhookBody, {
      url: endpoint.url,
      event_types: ['guidance.updated', 'vehicle.fuel_empty'],
    }),
  },
  listWebhooks: {
    request: { query: { limit: '25' } },
    responses: { 200: { data: [endpoint], next_cursor: null } },
    problem: new ApiError('invalid_cursor', 'The cursor is malformed.'),
  },
  getWebhook: {
    request: { params: byId },
    responses: { 200: endpoint },
    problem: missing,
  },
  updateWebhook: {
    request: {
      params: byId,
      body: { event_types: ['*'], description: 'Dispatch board: every event' },
    },
    responses: {
      200: { ...endpoint, event_types: ['*'], description: 'Dispatch board: every event', updated_at: NOW },
    },
    problem: rejected('body', updateWebhookBody, { event_types: ['*', 'guidance.updated'] }),
  },
  deleteWebhook: {
    request: { params: byId },
    problem: missing,
  },
  rotateWebhookSecret: {
    request: { params: byId },
    responses: {
      200: { ...endpoint, updated_at: NOW, secret: 'whsec_4pWn8RkY1eTq7LzC3vXb9HmJ0sUf6GdA2oKi5NtQyEc' },
    },
    problem: missing,
  },
  listWebhookDeliveries: {
    request: { params: byId, query: { status: 'succeeded', limit: '10' } },
    responses: { 200: { data: [delivery], next_cursor: null } },
    problem: missing,
  },
  replayWebhookDelivery: {
    request: { params: { id: IDS.webhook, deliveryId: IDS.delivery } },
    responses: {
      202: {
        ...delivery,
        id: IDS.replayDelivery,
        status: 'pending',
        attempts: 0,
        last_status_code: null,
        last_duration_ms: null,
        is_replay: true,
        created_at: NOW,
        last_attempt_at: null,
        completed_at: null,
      },
    },
    problem: new ApiError(
      'event_expired',
      `Event ${IDS.event} is past its ${EVENT_RETENTION_DAYS}-day replay window.`,
    ),
  },
  testWebhook: {
    request: { params: byId, body: { event_type: 'vehicle.fuel_low' } },
    responses: {
      200: {
        delivered: true,
        status_code: 200,
        duration_ms: 143,
        error: null,
        event: { id: IDS.testEvent, type: 'vehicle.fuel_low' },
      },
    },
    problem: missing,
  },
} satisfies ExamplesFor<typeof webhookOperations>;
