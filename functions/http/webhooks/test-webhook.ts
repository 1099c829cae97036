import { routes } from '../../../shared/api/routes.ts';
import { defaultTestEventType } from '../../../shared/domain/webhooks/endpoint.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { logger } from '../../../shared/platform/observability.ts';
import { deliveryDeps } from '../../../shared/store/delivery-repositories.ts';
import { ownerOf, webhookEndpointDeps } from '../../../shared/store/webhook-repositories.ts';
import { sendTestEvent } from '../../../shared/usecases/webhook-delivery.ts';
import { findWebhookEndpoint } from '../../../shared/usecases/webhook-endpoints.ts';

export const handler = createHttpHandler(routes.testWebhook, async ({ params, body }, context) => {
  const endpoint = await findWebhookEndpoint(webhookEndpointDeps(), ownerOf(context), params.id);
  const type = body?.event_type ?? defaultTestEventType(endpoint);
  const result = await sendTestEvent(deliveryDeps(), endpoint, type, context.stage === 'sandbox');
  logger.info('Webhook test send', { endpointId: endpoint.id, ...result });
  return ok(result);
});
