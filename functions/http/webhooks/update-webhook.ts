import { updateWebhookRoute } from '../../../shared/api/routes/webhooks.ts';
import { webhookResource } from '../../../shared/api/serializers/webhooks.ts';
import { actingWebhookOwner } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { updateWebhookEndpoint } from '../../../shared/usecases/webhook-endpoints.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { webhookEndpointDeps } from '../../../shared/wiring/webhooks.ts';

export const handler = httpHandler(updateWebhookRoute, async ({ params, body }, context) =>
  ok(
    webhookResource(
      await updateWebhookEndpoint(webhookEndpointDeps(), actingWebhookOwner(context), params.id, body),
    ),
  ),
);
