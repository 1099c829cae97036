import { rotateWebhookSecretRoute } from '../../../shared/api/routes/webhooks.ts';
import { webhookWithSecretResource } from '../../../shared/api/serializers/webhooks.ts';
import { actingWebhookOwner } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { rotateWebhookSecret } from '../../../shared/usecases/webhook-endpoints.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { webhookEndpointDeps } from '../../../shared/wiring/webhooks.ts';

export const handler = httpHandler(rotateWebhookSecretRoute, async ({ params }, context) => {
  const { endpoint, secret } = await rotateWebhookSecret(
    webhookEndpointDeps(),
    actingWebhookOwner(context),
    params.id,
  );
  return ok(webhookWithSecretResource(endpoint, secret));
});
