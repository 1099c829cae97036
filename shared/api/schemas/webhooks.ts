import * as z from 'zod';
import { EVENT_CATALOG } from '../../domain/events.ts';
import { WILDCARD } from '../../domain/webhooks/endpoint.ts';
import { pageOf, pageQuery, publicId, timestamp } from './common.ts';

const catalogTypes = EVENT_CATALOG.map((entry) => entry.type) as [string, ...string[]];

const eventTypes = z
  .array(z.string())
  .min(1)
  .max(EVENT_CATALOG.length)
  .superRefine((types, ctx) => {
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
  })
  .meta({
    description: 'Catalog types, or `["*"]` for all',
    example: ['guidance.updated', 'vehicle.fuel_low'],
  });

const webhookUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .meta({ description: 'HTTPS, publicly reachable', example: 'https://hooks.example.com/fleet-fuel' });

export const createWebhookBody = z
  .strictObject({
    url: webhookUrl,
    event_types: eventTypes,
    description: z.string().trim().max(500).optional(),
  })
  .meta({ id: 'CreateWebhookRequest' });

export const updateWebhookBody = z
  .strictObject({
    url: webhookUrl.optional(),
    event_types: eventTypes.optional(),
    description: z.string().trim().max(500).nullable().optional(),
    status: z
      .enum(['active', 'disabled'])
      .optional()
      .meta({ description: 'Re-enable a disabled endpoint, or pause one' }),
  })
  .meta({ id: 'UpdateWebhookRequest' });

export const webhookSchema = z
  .object({
    id: publicId('webhookEndpoint'),
    url: z.string(),
    event_types: z.array(z.string()),
    description: z.string().nullable(),
    status: z.enum(['active', 'disabled']),
    disabled_reason: z.string().nullable(),
    level: z
      .enum(['fleet', 'partner'])
      .meta({ description: 'partner: receives the partner’s fleet.provisioned events' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });

export const webhookWithSecretSchema = webhookSchema
  .extend({ secret: z.string().meta({ description: 'whsec_…: shown only in this response' }) })
  .meta({ id: 'WebhookEndpointWithSecret' });

export const webhookIdParams = z.object({ id: publicId('webhookEndpoint') });
export const listWebhooksQuery = z.object({ ...pageQuery });
export const webhookPage = pageOf(webhookSchema, 'WebhookEndpointPage');

export const eventTypesSchema = z
  .object({
    data: z.array(
      z.object({
        type: z.string(),
        description: z.string(),
        data_fields: z.array(z.string()).nullable().meta({
          description:
            'Members of the event’s `data`; a trailing `?` marks one that is only sometimes present. Null: published with the feature that emits the type.',
        }),
      }),
    ),
  })
  .meta({ id: 'EventTypes' });

export type CreateWebhookBody = z.infer<typeof createWebhookBody>;
export type UpdateWebhookBody = z.infer<typeof updateWebhookBody>;

export const deliverySchema = z
  .object({
    id: publicId('webhookDelivery'),
    endpoint_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(['pending', 'retrying', 'succeeded', 'failed']),
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    last_duration_ms: z.number().nullable(),
    is_replay: z.boolean(),
    created_at: timestamp,
    last_attempt_at: timestamp.nullable(),
    next_retry_at: timestamp.nullable(),
    completed_at: timestamp.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

export const listDeliveriesQuery = z.object({
  status: z.enum(['pending', 'retrying', 'succeeded', 'failed']).optional(),
  ...pageQuery,
});
export const deliveryPage = pageOf(deliverySchema, 'WebhookDeliveryPage');
export const deliveryParams = z.object({
  id: publicId('webhookEndpoint'),
  deliveryId: publicId('webhookDelivery'),
});

export const testWebhookBody = z
  .strictObject({ event_type: z.enum(catalogTypes).optional() })
  .meta({ id: 'TestWebhookRequest' });

export const testWebhookResult = z
  .object({
    delivered: z.boolean().meta({ description: 'The receiver answered 2xx' }),
    status_code: z.number().int().nullable(),
    duration_ms: z.number(),
    error: z.string().nullable(),
    event: z.object({ id: z.string(), type: z.string() }),
  })
  .meta({ id: 'WebhookTestResult' });
