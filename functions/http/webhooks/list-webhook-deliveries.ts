import { routes } from '../../../shared/api/routes.ts';
import { deliveryResource } from '../../../shared/api/serializers/webhooks.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { deliveryDeps } from '../../../shared/store/delivery-repositories.ts';
import { ownerOf, webhookEndpointDeps } from '../../../shared/store/webhook-repositories.ts';
import { findWebhookEndpoint } from '../../../shared/usecases/webhook-endpoints.ts';

export const handler = createHttpHandler(routes.listWebhookDeliveries, async ({ params, query }, context) => {
  const owner = ownerOf(context);
  // The endpoint must be the caller's before its log is read.
  const endpoint = await findWebhookEndpoint(webhookEndpointDeps(), owner, params.id);
  const page = await deliveryDeps().deliveries.list(
    owner,
    endpoint.id,
    query.status,
    query.limit,
    query.cursor,
  );
  return ok({ data: page.data.map(deliveryResource), next_cursor: page.next_cursor });
});
