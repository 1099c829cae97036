import * as z from 'zod/mini';
import { extendWithoutMeta, pageOf, pageQuery, publicId, timestamp } from '#shared/api/common-schemas.ts';
import { EVENT_CATALOG } from '#shared/events/domain/events.ts';
import { WILDCARD } from '../domain/endpoint.ts';

const catalogTypes = EVENT_CATALOG.map((entry) => entry.type) as [string, ...string[]];

const eventTypes = z.array(z.string()).check(
  z.minLength(1),
  z.maxLength(EVENT_CATALOG.length),
  z.superRefine((types, ctx) => {
    const unknown = types.filter((type) => type !== WILDCARD && !catalogTypes.includes(type));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `not in the event catalog: ${unknown.join(', ')} (see GET /v1/webhooks/event-types)`,
      });
    } else if (types.includes(WILDCARD) && types.length > 1) {
      ctx.addIssue({ code: 'custom', message: 'the wildcard "*" must be the only entry' });
    } else if (new Set(types).size !== types.length) {
      ctx.addIssue({ code: 'custom', message: 'lists a type twice' });
    }
  }),
  z.meta({
    description: 'Catalog types, or `["*"]` for all',
    example: ['guidance.updated', 'vehicle.fuel_low'],
  }),
);

const webhookUrl = z
  .string()
  .check(
    z.trim(),
    z.minLength(1),
    z.maxLength(2048),
    z.meta({ description: 'HTTPS, publicly reachable', example: 'https://hooks.example.com/fleet-fuel' }),
  );

export const createWebhookBody = z
  .strictObject({
    url: webhookUrl,
    event_types: eventTypes,
    description: z.optional(z.string().check(z.trim(), z.maxLength(500))),
  })
  .check(z.meta({ id: 'CreateWebhookRequest' }));

export const updateWebhookBody = z
  .strictObject({
    url: z.optional(webhookUrl),
    event_types: z.optional(eventTypes),
    description: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(500)))),
    status: z
      .optional(z.enum(['active', 'disabled']))
      .check(z.meta({ description: 'Re-enable a disabled endpoint, or pause one' })),
  })
  .check(z.meta({ id: 'UpdateWebhookRequest' }));

export const webhookSchema = z
  .object({
    id: publicId('webhookEndpoint'),
    url: z.string(),
    event_types: z.array(z.string()),
    description: z.nullable(z.string()),
    status: z.enum(['active', 'disabled']),
    disabled_reason: z.nullable(z.string()),
    level: z
      .enum(['fleet', 'partner'])
      .check(z.meta({ description: 'partner: receives the partner’s fleet.provisioned events' })),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .check(z.meta({ id: 'WebhookEndpoint' }));

export const webhookWithSecretSchema = extendWithoutMeta(webhookSchema, {
  secret: z.string().check(z.meta({ description: 'whsec_…: shown only in this response' })),
}).check(z.meta({ id: 'WebhookEndpointWithSecret' }));

export const webhookIdParams = z.object({ id: publicId('webhookEndpoint') });
export const listWebhooksQuery = z.object({ ...pageQuery });
export const webhookPage = pageOf(webhookSchema, 'WebhookEndpointPage');

export const eventTypesSchema = z
  .object({
    data: z.array(
      z.object({
        type: z.string(),
        description: z.string(),
        data_fields: z.array(z.string()).check(
          z.meta({
            description:
              'Members of the event’s `data`; a trailing `?` marks one that is only sometimes present. This document’s `webhooks` section describes each member (the type’s `…Event` and `…Data` schemas).',
          }),
        ),
      }),
    ),
  })
  .check(z.meta({ id: 'EventTypes' }));

export type CreateWebhookBody = z.infer<typeof createWebhookBody>;
export type UpdateWebhookBody = z.infer<typeof updateWebhookBody>;

export const deliverySchema = z
  .object({
    id: publicId('webhookDelivery'),
    endpoint_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(['pending', 'retrying', 'succeeded', 'failed']),
    attempts: z.number().check(z.int()),
    last_status_code: z.nullable(z.number().check(z.int())),
    last_error: z.nullable(z.string()),
    last_duration_ms: z.nullable(z.number()),
    is_replay: z.boolean(),
    created_at: timestamp,
    last_attempt_at: z.nullable(timestamp),
    next_retry_at: z.nullable(timestamp),
    completed_at: z.nullable(timestamp),
  })
  .check(z.meta({ id: 'WebhookDelivery' }));

export const listDeliveriesQuery = z.object({
  status: z.optional(z.enum(['pending', 'retrying', 'succeeded', 'failed'])),
  ...pageQuery,
});
export const deliveryPage = pageOf(deliverySchema, 'WebhookDeliveryPage');
export const deliveryParams = z.object({
  id: publicId('webhookEndpoint'),
  deliveryId: publicId('webhookDelivery'),
});

export const testWebhookBody = z
  .strictObject({ event_type: z.optional(z.enum(catalogTypes)) })
  .check(z.meta({ id: 'TestWebhookRequest' }));

export const testWebhookResult = z
  .object({
    delivered: z.boolean().check(z.meta({ description: 'The receiver answered 2xx' })),
    status_code: z.nullable(z.number().check(z.int())),
    duration_ms: z.number(),
    error: z.nullable(z.string()),
    event: z.object({ id: z.string(), type: z.string() }),
  })
  .check(z.meta({ id: 'WebhookTestResult' }));
