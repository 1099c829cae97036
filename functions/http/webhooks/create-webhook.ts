import { actingWebhookOwner } from '#shared/platform/http/acting.ts';
import { created } from '#shared/platform/http/types.ts';
import { createWebhookOperation } from '#shared/webhooks/api/operations.ts';
import { webhookWithSecretResource } from '#shared/webhooks/api/serializers.ts';
import { createWebhookEndpoint } from '#shared/webhooks/usecases/webhook-endpoints.ts';
import { webhookEndpointDeps } from '#shared/webhooks/wiring/webhooks.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(createWebhookOperation, async ({ body }, context) => {
  const { endpoint, secret } = await createWebhookEndpoint(
    webhookEndpointDeps(),
    actingWebhookOwner(context),
    body,
  );
  return created(webhookWithSecretResource(endpoint, secret));
});
