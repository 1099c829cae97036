import { routes } from '../../../shared/api/routes.ts';
import { webhookResource } from '../../../shared/api/serializers/webhooks.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { created } from '../../../shared/platform/http/types.ts';
import { ownerOf, webhookEndpointDeps } from '../../../shared/store/webhook-repositories.ts';
import { createWebhookEndpoint } from '../../../shared/usecases/webhook-endpoints.ts';

export const handler = createHttpHandler(routes.createWebhook, async ({ body }, context) => {
  const { endpoint, secret } = await createWebhookEndpoint(webhookEndpointDeps(), ownerOf(context), body);
  return created({ ...webhookResource(endpoint), secret });
});
