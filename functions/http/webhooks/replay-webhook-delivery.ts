import { routes } from '../../../shared/api/routes.ts';
import { deliveryResource } from '../../../shared/api/serializers/webhooks.ts';
import { ApiError } from '../../../shared/platform/errors.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { deliveryDeps } from '../../../shared/store/delivery-repositories.ts';
import { ownerOf, webhookEndpointDeps } from '../../../shared/store/webhook-repositories.ts';
import { replayDelivery } from '../../../shared/usecases/webhook-delivery.ts';
import { findWebhookEndpoint } from '../../../shared/usecases/webhook-endpoints.ts';

export const handler = createHttpHandler(routes.replayWebhookDelivery, async ({ params }, context) => {
  const owner = ownerOf(context);
  const endpoint = await findWebhookEndpoint(webhookEndpointDeps(), owner, params.id);
  const deps = deliveryDeps();
  const original = await deps.deliveries.get(owner, endpoint.id, params.deliveryId);
  if (!original) throw new ApiError('resource_not_found', `Delivery ${params.deliveryId} was not found.`);
  return { status: 202, body: deliveryResource(await replayDelivery(deps, endpoint, original)) };
});
