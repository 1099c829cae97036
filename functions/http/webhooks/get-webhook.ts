import { getWebhookRoute } from '../../../shared/api/routes/webhooks.ts';
import { webhookResource } from '../../../shared/api/serializers/webhooks.ts';
import { actingWebhookOwner } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { findWebhookEndpoint } from '../../../shared/usecases/webhook-endpoints.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { webhookEndpointDeps } from '../../../shared/wiring/webhooks.ts';

export const handler = httpHandler(getWebhookRoute, async ({ params }, context) =>
  ok(
    webhookResource(await findWebhookEndpoint(webhookEndpointDeps(), actingWebhookOwner(context), params.id)),
  ),
);
