import { newId } from '#shared/kernel/ids.ts';
import { type Clock, formatTimestamp } from '#shared/kernel/time.ts';
import { ApiError } from '#shared/platform/errors.ts';
import {
  checkWebhookUrl,
  lookupAllAddresses,
  WEBHOOK_TARGET_POLICIES,
  type WebhookTargetPolicy,
} from '#shared/platform/url-guard.ts';
import type { CreateWebhookBody, UpdateWebhookBody } from '../api/schemas.ts';
import { rotateSecrets, type WebhookEndpoint, type WebhookOwner } from '../domain/endpoint.ts';
import { generateWebhookSecret } from '../domain/signature.ts';
import type { WebhookEndpointStore } from '../store/webhook-endpoints.ts';

export interface WebhookEndpointDeps {
  endpoints: WebhookEndpointStore;
  clock: Clock;
  /** Which receivers are accepted: `public` on deployed stages, `loopback` by default locally. */
  targets: WebhookTargetPolicy;
  /**
   * Where the policy can be changed (the local stack), how: the hint of a refusal that a wider
   * policy would lift, given that policy. Unset on deployed stages, whose refusals keep the
   * registry's hint.
   */
  widerTargetsHint?: ((wider: WebhookTargetPolicy) => string) | undefined;
  resolve?: (host: string) => Promise<string[]>;
}

async function assertDeliverable(deps: WebhookEndpointDeps, url: string): Promise<string> {
  const resolve = deps.resolve ?? lookupAllAddresses;
  const checked = await checkWebhookUrl(url, { resolve, targets: deps.targets });
  if (!checked.ok) {
    const wider = deps.widerTargetsHint ? await widerPolicyAccepting(url, deps.targets, resolve) : undefined;
    throw new ApiError('validation_failed', `The webhook url is not allowed: ${checked.reason}.`, {
      ...(wider && deps.widerTargetsHint ? { hint: deps.widerTargetsHint(wider) } : {}),
      extensions: { errors: [{ field: 'url', message: checked.reason }] },
    });
  }
  return checked.url.toString();
}

/** The narrowest policy wider than `current` that would accept the url, if any. */
async function widerPolicyAccepting(
  url: string,
  current: WebhookTargetPolicy,
  resolve: (host: string) => Promise<string[]>,
): Promise<WebhookTargetPolicy | undefined> {
  for (const wider of WEBHOOK_TARGET_POLICIES.slice(WEBHOOK_TARGET_POLICIES.indexOf(current) + 1)) {
    if ((await checkWebhookUrl(url, { resolve, targets: wider })).ok) return wider;
  }
  return undefined;
}

export async function createWebhookEndpoint(
  deps: WebhookEndpointDeps,
  owner: WebhookOwner,
  body: CreateWebhookBody,
) {
  const url = await assertDeliverable(deps, body.url);
  const nowMs = deps.clock.now();
  const secret = generateWebhookSecret();
  const endpoint: WebhookEndpoint = {
    id: newId('webhookEndpoint', nowMs),
    owner,
    url,
    eventTypes: body.event_types,
    description: body.description ?? null,
    status: 'active',
    disabledReason: null,
    secrets: [{ value: secret, expiresAtMs: null }],
    consecutiveFailedDeliveries: 0,
    healthySinceMs: nowMs,
    createdAt: formatTimestamp(nowMs),
    updatedAt: formatTimestamp(nowMs),
  };
  await deps.endpoints.create(endpoint);
  return { endpoint, secret };
}

/** The owner's endpoints, a page at a time. */
export function listWebhookEndpoints(
  deps: Pick<WebhookEndpointDeps, 'endpoints'>,
  owner: WebhookOwner,
  limit: number,
  cursor: string | undefined,
) {
  return deps.endpoints.list(owner, limit, cursor);
}

export async function findWebhookEndpoint(
  deps: Pick<WebhookEndpointDeps, 'endpoints'>,
  owner: WebhookOwner,
  id: string,
) {
  const endpoint = await deps.endpoints.get(owner, id);
  if (!endpoint) throw new ApiError('resource_not_found', `Webhook endpoint ${id} was not found.`);
  return endpoint;
}

export async function updateWebhookEndpoint(
  deps: WebhookEndpointDeps,
  owner: WebhookOwner,
  id: string,
  body: UpdateWebhookBody,
) {
  const endpoint = await findWebhookEndpoint(deps, owner, id);
  const url = body.url === undefined ? endpoint.url : await assertDeliverable(deps, body.url);
  const reenabled = body.status === 'active' && endpoint.status === 'disabled';
  const next: WebhookEndpoint = {
    ...endpoint,
    url,
    eventTypes: body.event_types ?? endpoint.eventTypes,
    description: body.description === undefined ? endpoint.description : body.description,
    status: body.status ?? endpoint.status,
    disabledReason:
      body.status === 'disabled' ? 'disabled by the owner' : reenabled ? null : endpoint.disabledReason,
    // A re-enabled endpoint starts with a clean record, or the next failure would disable it again.
    consecutiveFailedDeliveries: reenabled ? 0 : endpoint.consecutiveFailedDeliveries,
    healthySinceMs: reenabled ? deps.clock.now() : endpoint.healthySinceMs,
    updatedAt: formatTimestamp(deps.clock.now()),
  };
  if (!(await deps.endpoints.save(next, endpoint.updatedAt))) throw changedMeanwhile(id);
  return next;
}

export async function deleteWebhookEndpoint(
  deps: Pick<WebhookEndpointDeps, 'endpoints'>,
  owner: WebhookOwner,
  id: string,
) {
  if (!(await deps.endpoints.delete(owner, id))) {
    throw new ApiError('resource_not_found', `Webhook endpoint ${id} was not found.`);
  }
}

/** A new secret, shown once; the previous one keeps signing (alongside) for 24 hours. */
export async function rotateWebhookSecret(deps: WebhookEndpointDeps, owner: WebhookOwner, id: string) {
  const endpoint = await findWebhookEndpoint(deps, owner, id);
  const nowMs = deps.clock.now();
  const secret = generateWebhookSecret();
  const next = {
    ...endpoint,
    secrets: rotateSecrets(endpoint.secrets, secret, nowMs),
    updatedAt: formatTimestamp(nowMs),
  };
  if (!(await deps.endpoints.save(next, endpoint.updatedAt))) throw changedMeanwhile(id);
  return { endpoint: next, secret };
}

/** The endpoint vanished or another request changed it between our read and our write. */
function changedMeanwhile(id: string): ApiError {
  return new ApiError(
    'resource_conflict',
    `Webhook endpoint ${id} was changed or deleted by another request.`,
    {
      hint: 'read the endpoint again and retry',
    },
  );
}
