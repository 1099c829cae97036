import { routes } from '../../../shared/api/routes.ts';
import { webhookResource } from '../../../shared/api/serializers/webhooks.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { ownerOf, webhookEndpointDeps } from '../../../shared/store/webhook-repositories.ts';

export const handler = createHttpHandler(routes.listWebhooks, async ({ query }, context) => {
  const page = await webhookEndpointDeps().endpoints.list(ownerOf(context), query.limit, query.cursor);
  return ok({ data: page.data.map(webhookResource), next_cursor: page.next_cursor });
});
