import { actingWebhookOwner } from '#shared/platform/http/acting.ts';
import { replayWebhookDeliveryOperation } from '#shared/webhooks/api/operations.ts';
import { deliveryResource } from '#shared/webhooks/api/serializers.ts';
import { replayEndpointDelivery } from '#shared/webhooks/usecases/webhook-delivery-log.ts';
import { deliveryDeps } from '#shared/webhooks/wiring/webhooks.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(replayWebhookDeliveryOperation, async ({ params }, context) => {
  const replay = await replayEndpointDelivery(
    deliveryDeps(),
    actingWebhookOwner(context),
    params.id,
    params.deliveryId,
  );
  return { status: 202, body: deliveryResource(replay) };
});
