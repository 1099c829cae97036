import { deleteWebhookRoute } from '../../../shared/api/routes/webhooks.ts';
import { actingWebhookOwner } from '../../../shared/platform/http/acting.ts';
import { noContent } from '../../../shared/platform/http/types.ts';
import { deleteWebhookEndpoint } from '../../../shared/usecases/webhook-endpoints.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { webhookEndpointDeps } from '../../../shared/wiring/webhooks.ts';

export const handler = httpHandler(deleteWebhookRoute, async ({ params }, context) => {
  await deleteWebhookEndpoint(webhookEndpointDeps(), actingWebhookOwner(context), params.id);
  return noContent();
});
