import { routes } from '../../../shared/api/routes.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { noContent } from '../../../shared/platform/http/types.ts';
import { ownerOf, webhookEndpointDeps } from '../../../shared/store/webhook-repositories.ts';
import { deleteWebhookEndpoint } from '../../../shared/usecases/webhook-endpoints.ts';

export const handler = createHttpHandler(routes.deleteWebhook, async ({ params }, context) => {
  await deleteWebhookEndpoint(webhookEndpointDeps(), ownerOf(context), params.id);
  return noContent();
});
