import { listWebhookDeliveriesRoute } from '../../../shared/api/routes/webhooks.ts';
import { pageResource } from '../../../shared/api/serializers/common.ts';
import { deliveryResource } from '../../../shared/api/serializers/webhooks.ts';
import { actingWebhookOwner } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { listEndpointDeliveries } from '../../../shared/usecases/webhook-delivery-log.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { deliveryLogDeps } from '../../../shared/wiring/webhooks.ts';

export const handler = httpHandler(listWebhookDeliveriesRoute, async ({ params, query }, context) => {
  const page = await listEndpointDeliveries(deliveryLogDeps(), actingWebhookOwner(context), params.id, query);
  return ok(pageResource(page, deliveryResource));
});
