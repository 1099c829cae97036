import { pageResource } from '#shared/api/common-serializers.ts';
import { actingWebhookOwner } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { listWebhooksOperation } from '#shared/webhooks/api/operations.ts';
import { webhookResource } from '#shared/webhooks/api/serializers.ts';
import { listWebhookEndpoints } from '#shared/webhooks/usecases/webhook-endpoints.ts';
import { webhookEndpointDeps } from '#shared/webhooks/wiring/webhooks.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(listWebhooksOperation, async ({ query }, context) => {
  const page = await listWebhookEndpoints(
    webhookEndpointDeps(),
    actingWebhookOwner(context),
    query.limit,
    query.cursor,
  );
  return ok(pageResource(page, webhookResource));
});
