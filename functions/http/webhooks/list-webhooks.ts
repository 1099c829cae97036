import { listWebhooksRoute } from '../../../shared/api/routes/webhooks.ts';
import { pageResource } from '../../../shared/api/serializers/common.ts';
import { webhookResource } from '../../../shared/api/serializers/webhooks.ts';
import { actingWebhookOwner } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { listWebhookEndpoints } from '../../../shared/usecases/webhook-endpoints.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { webhookEndpointDeps } from '../../../shared/wiring/webhooks.ts';

export const handler = httpHandler(listWebhooksRoute, async ({ query }, context) => {
  const page = await listWebhookEndpoints(
    webhookEndpointDeps(),
    actingWebhookOwner(context),
    query.limit,
    query.cursor,
  );
  return ok(pageResource(page, webhookResource));
});
