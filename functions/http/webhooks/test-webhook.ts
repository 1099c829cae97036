import { testWebhookRoute } from '../../../shared/api/routes/webhooks.ts';
import { actingWebhookOwner } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { testEndpoint } from '../../../shared/usecases/webhook-delivery-log.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { deliveryDeps } from '../../../shared/wiring/webhooks.ts';

export const handler = httpHandler(testWebhookRoute, async ({ params, body }, context) =>
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
