import { actingWebhookOwner } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { updateWebhookOperation } from '#shared/webhooks/api/operations.ts';
import { webhookResource } from '#shared/webhooks/api/serializers.ts';
import { updateWebhookEndpoint } from '#shared/webhooks/usecases/webhook-endpoints.ts';
import { webhookEndpointDeps } from '#shared/webhooks/wiring/webhooks.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(updateWebhookOperation, async ({ params, body }, context) =>
  ok(
    webhookResource(
      await updateWebhookEndpoint(webhookEndpointDeps(), actingWebhookOwner(context), params.id, body),
    ),
  ),
);
