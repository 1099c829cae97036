import { routes } from '../../../shared/api/routes.ts';
import { webhookResource } from '../../../shared/api/serializers/webhooks.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { ownerOf, webhookEndpointDeps } from '../../../shared/store/webhook-repositories.ts';
import { findWebhookEndpoint } from '../../../shared/usecases/webhook-endpoints.ts';

export const handler = createHttpHandler(routes.getWebhook, async ({ params }, context) =>
  ok(webhookResource(await findWebhookEndpoint(webhookEndpointDeps(), ownerOf(context), params.id))),
);
