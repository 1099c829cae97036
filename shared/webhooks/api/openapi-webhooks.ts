import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod/mini';
import { eventComponentStem } from '#shared/events/api/event-data-schemas.ts';
import { webhookEventExamples } from '#shared/events/api/examples.ts';
import { eventEnvelopes } from '#shared/events/api/schemas.ts';
import { EVENT_CATALOG, type EventType } from '#shared/events/domain/events.ts';
import { JSON_CONTENT_TYPE } from '#shared/platform/http/json.ts';
import { WEBHOOK_TIMEOUT_MS, WEBHOOK_USER_AGENT } from '#shared/platform/webhook-sender.ts';
import { DEFAULT_TOLERANCE_SECONDS } from '../../../webhooks-receiver/index.ts';
import { MAX_DELIVERY_ATTEMPTS, RETRY_DELAYS_SECONDS } from '../domain/retry-schedule.ts';
import type { deliveryHeaders } from '../usecases/webhook-delivery.ts';

/**
 * The `webhooks` section of openapi.json (OpenAPI 3.1): one entry per event type of the catalog,
 * the POST each delivery makes to a subscribed endpoint. Its body is that type's envelope (the
 * `…Event` component, `data` its `…Data` component), its headers the ones the dispatcher sends.
 */

type DeliveryHeader = keyof ReturnType<typeof deliveryHeaders>;

/**
 * The headers a delivery carries, as parameters, keyed by the names deliveryHeaders() sends, so a
 * header added there cannot go unpublished. Content-Type is the request body's media type, which
 * OpenAPI describes there, not as a parameter.
 */
function headersOf(type: EventType): { [H in Exclude<DeliveryHeader, 'Content-Type'>]: z.core.$ZodType } {
  return {
    'User-Agent': z.literal(WEBHOOK_USER_AGENT).check(z.meta({ description: 'Every delivery’s sender.' })),
    'X-Service-Event-Id': z.string().check(
      z.meta({
        description:
          'The event’s `id` (`evt_`): the same on a replay or a rare duplicate, so handle each id once.',
        pattern: '^evt_[0-9A-HJKMNP-TV-Z]{26}$',
        example: 'evt_01JD7ZK3M4N5P6Q7R8S9T0V1W2',
      }),
    ),
    'X-Service-Event-Type': z
      .literal(type)
      .check(z.meta({ description: 'The event’s `type`, to route it before parsing the body.' })),
    'X-Service-Signature': z.string().check(
      z.meta({
        description: `\`t=<unix seconds>,v1=<hex>\`: the lowercase hex HMAC-SHA256, keyed with the whole \`whsec_…\` secret, of \`<t>.<raw body>\`; one \`v1=\` per valid secret during a rotation. Compare in constant time and refuse a \`t\` more than ${DEFAULT_TOLERANCE_SECONDS / 60} minutes away.`,
        pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$',
        example: 't=1795300000,v1=5f2b8e7c0d1a4b3c9e6f2a7d8c1b0e4f3a9d6c2b7e1f0a8d5c4b3e2f1a0d9c8b',
      }),
    ),
  };
}

const retryHours = Math.round(RETRY_DELAYS_SECONDS.reduce((sum, seconds) => sum + seconds, 0) / 360) / 10;
const timeoutSeconds = WEBHOOK_TIMEOUT_MS / 1000;

/** The webhooks of the public document, in catalog order. */
export function webhookDefinitions(): RouteConfig[] {
  const examples = webhookEventExamples();
  return EVENT_CATALOG.map(({ type, description }) => ({
    method: 'post',
    path: type,
    operationId: `on${eventComponentStem(type)}`,
    summary: description.replace(/\.$/, ''),
    description:
      `Delivered to every active endpoint subscribed to \`${type}\` (or \`*\`). The body is the event’s ` +
      'envelope exactly as signed; `GET /v1/events/{id}` answers the same bytes.',
    tags: ['Events'],
    security: [],
    request: {
      headers: z.object(headersOf(type)) as never,
      body: {
        required: true,
        content: {
          [JSON_CONTENT_TYPE]: { schema: eventEnvelopes[type] as never, example: examples[type] },
        },
      },
    },
    responses: {
      '2XX': {
        description: `Received. Answer within ${timeoutSeconds} seconds; the body is ignored. Process the event after answering.`,
      },
      default: {
        description: `Not received: any other status, a redirect, or no answer within ${timeoutSeconds} seconds. The delivery is tried again, ${MAX_DELIVERY_ATTEMPTS} attempts over about ${retryHours} hours in all.`,
      },
    },
  }));
}
