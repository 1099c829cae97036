import { actingWebhookOwner } from '#shared/platform/http/acting.ts';
import { noContent } from '#shared/platform/http/types.ts';
import { deleteWebhookOperation } from '#shared/webhooks/api/operations.ts';
import { deleteWebhookEndpoint } from '#shared/webhooks/usecases/webhook-endpoints.ts';
import { webhookEndpointDeps } from '#shared/webhooks/wiring/webhooks.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(deleteWebhookOperation, async ({ params }, context) => {
  await deleteWebhookEndpoint(webhookEndpointDeps(), actingWebhookOwner(context), params.id);
  return noContent();
});
