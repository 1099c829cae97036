import { actingWebhookOwner } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { getWebhookOperation } from '#shared/webhooks/api/operations.ts';
import { webhookResource } from '#shared/webhooks/api/serializers.ts';
import { findWebhookEndpoint } from '#shared/webhooks/usecases/webhook-endpoints.ts';
import { webhookEndpointDeps } from '#shared/webhooks/wiring/webhooks.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(getWebhookOperation, async ({ params }, context) =>
  ok(
    webhookResource(await findWebhookEndpoint(webhookEndpointDeps(), actingWebhookOwner(context), params.id)),
  ),
);
