import { actingWebhookOwner } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { testWebhookOperation } from '#shared/webhooks/api/operations.ts';
import { testEndpoint } from '#shared/webhooks/usecases/webhook-delivery-log.ts';
import { deliveryDeps } from '#shared/webhooks/wiring/webhooks.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(testWebhookOperation, async ({ params, body }, context) =>
  ok(
    await testEndpoint(
      deliveryDeps(),
      actingWebhookOwner(context),
      params.id,
      body?.event_type,
      context.stage === 'sandbox',
    ),
  ),
);
