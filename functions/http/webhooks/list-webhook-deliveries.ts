import { pageResource } from '#shared/api/common-serializers.ts';
import { actingWebhookOwner } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { listWebhookDeliveriesOperation } from '#shared/webhooks/api/operations.ts';
import { deliveryResource } from '#shared/webhooks/api/serializers.ts';
import { listEndpointDeliveries } from '#shared/webhooks/usecases/webhook-delivery-log.ts';
import { deliveryLogDeps } from '#shared/webhooks/wiring/webhooks.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(listWebhookDeliveriesOperation, async ({ params, query }, context) => {
  const page = await listEndpointDeliveries(deliveryLogDeps(), actingWebhookOwner(context), params.id, query);
  return ok(pageResource(page, deliveryResource));
});
