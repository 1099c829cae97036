import { replayWebhookDeliveryRoute } from '../../../shared/api/routes/webhooks.ts';
import { deliveryResource } from '../../../shared/api/serializers/webhooks.ts';
import { actingWebhookOwner } from '../../../shared/platform/http/acting.ts';
import { replayEndpointDelivery } from '../../../shared/usecases/webhook-delivery-log.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { deliveryDeps } from '../../../shared/wiring/webhooks.ts';

export const handler = httpHandler(replayWebhookDeliveryRoute, async ({ params }, context) => {
  const replay = await replayEndpointDelivery(
    deliveryDeps(),
    actingWebhookOwner(context),
    params.id,
    params.deliveryId,
  );
  return { status: 202, body: deliveryResource(replay) };
});
