import { actingWebhookOwner } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { rotateWebhookSecretOperation } from '#shared/webhooks/api/operations.ts';
import { webhookWithSecretResource } from '#shared/webhooks/api/serializers.ts';
import { rotateWebhookSecret } from '#shared/webhooks/usecases/webhook-endpoints.ts';
import { webhookEndpointDeps } from '#shared/webhooks/wiring/webhooks.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(rotateWebhookSecretOperation, async ({ params }, context) => {
  const { endpoint, secret } = await rotateWebhookSecret(
    webhookEndpointDeps(),
    actingWebhookOwner(context),
    params.id,
  );
  return ok(webhookWithSecretResource(endpoint, secret));
});
