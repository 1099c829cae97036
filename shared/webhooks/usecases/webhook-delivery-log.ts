import { ApiError } from '#shared/platform/errors.ts';
import { logger } from '#shared/platform/observability.ts';
import type { DeliveryStatus } from '../domain/delivery.ts';
import { defaultTestEventType, type WebhookOwner } from '../domain/endpoint.ts';
import { type DeliveryDeps, replayDelivery, sendTestEvent } from './webhook-delivery.ts';
import { findWebhookEndpoint } from './webhook-endpoints.ts';

/*
 * What an endpoint's owner does with its deliveries. Each call first finds the endpoint among the
 * caller's own: another owner's endpoint id is 404 before its log is read or a byte is sent.
 */

/** GET /v1/webhooks/{id}/deliveries. */
export async function listEndpointDeliveries(
  deps: Pick<DeliveryDeps, 'endpoints' | 'deliveries'>,
  owner: WebhookOwner,
  endpointId: string,
  page: { status?: DeliveryStatus | undefined; limit: number; cursor?: string | undefined },
) {
  const endpoint = await findWebhookEndpoint(deps, owner, endpointId);
  return deps.deliveries.list(owner, endpoint.id, page.status, page.limit, page.cursor);
}

/** POST /v1/webhooks/{id}/deliveries/{deliveryId}/replay. */
export async function replayEndpointDelivery(
  deps: Pick<DeliveryDeps, 'endpoints' | 'deliveries' | 'queue' | 'now'>,
  owner: WebhookOwner,
  endpointId: string,
  deliveryId: string,
) {
  const endpoint = await findWebhookEndpoint(deps, owner, endpointId);
  const original = await deps.deliveries.get(owner, endpoint.id, deliveryId);
  if (!original) throw new ApiError('resource_not_found', `Delivery ${deliveryId} was not found.`);
  return replayDelivery(deps, endpoint, original);
}

/** POST /v1/webhooks/{id}/test: the endpoint's first subscribed type unless one is named. */
export async function testEndpoint(
  deps: Pick<DeliveryDeps, 'endpoints' | 'send' | 'now'>,
  owner: WebhookOwner,
  endpointId: string,
  eventType: string | undefined,
  sandbox: boolean,
) {
  const endpoint = await findWebhookEndpoint(deps, owner, endpointId);
  const result = await sendTestEvent(deps, endpoint, eventType ?? defaultTestEventType(endpoint), sandbox);
  logger.info('Webhook test send', { endpointId: endpoint.id, ...result });
  return result;
}
