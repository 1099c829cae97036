import { config } from '../platform/config.ts';
import type { ApiContext } from '../platform/http/types.ts';
import { systemClock } from '../platform/time.ts';
import { type WebhookEndpointDeps, webhookOwner } from '../usecases/webhook-endpoints.ts';
import { createCursorCodec } from './cursor.ts';
import { documentClient } from './dynamo-client.ts';
import { createWebhookEndpointStore } from './webhook-endpoints.ts';

let cached: WebhookEndpointDeps | undefined;

/** The webhook endpoint use cases' dependencies, built once per container. */
export function webhookEndpointDeps(): WebhookEndpointDeps {
  if (cached) return cached;
  const { tableName, cursorSigningKey, allowPrivateWebhookTargets } = config();
  cached = {
    endpoints: createWebhookEndpointStore(documentClient(), tableName, createCursorCodec(cursorSigningKey)),
    clock: systemClock,
    allowPrivateTargets: allowPrivateWebhookTargets,
  };
  return cached;
}

/** The endpoint owner of a webhook call: the acting fleet, or the partner itself without SVC-Fleet. */
export const ownerOf = (context: ApiContext) =>
  webhookOwner(context.fleetId, context.principal?.partnerId ?? null);
