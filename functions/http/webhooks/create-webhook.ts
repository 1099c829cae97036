import { createWebhookRoute } from '../../../shared/api/routes/webhooks.ts';
import { webhookWithSecretResource } from '../../../shared/api/serializers/webhooks.ts';
import { actingWebhookOwner } from '../../../shared/platform/http/acting.ts';
import { created } from '../../../shared/platform/http/types.ts';
import { createWebhookEndpoint } from '../../../shared/usecases/webhook-endpoints.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { webhookEndpointDeps } from '../../../shared/wiring/webhooks.ts';

export const handler = httpHandler(createWebhookRoute, async ({ body }, context) => {
  const { endpoint, secret } = await createWebhookEndpoint(
    webhookEndpointDeps(),
    actingWebhookOwner(context),
    body,
  );
  return created(webhookWithSecretResource(endpoint, secret));
});
