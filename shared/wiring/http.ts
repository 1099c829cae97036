import { createHttpChain, type RouteImplementation } from '#shared/platform/http/chain.ts';
import type { PlatformDeps } from '#shared/platform/http/platform-deps.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { perInfrastructure } from './infrastructure.ts';
import { tableStores } from './table-stores.ts';

/**
 * What the HTTP chain needs: keys, grants, plans and counters. The idempotency records are added
 * by shared/wiring/idempotent-http.ts, for the routes that need them only.
 */
export const httpChainDeps = /* @__PURE__ */ perInfrastructure((infra): PlatformDeps => {
  const { apiKeys, fleets, plans, counters } = tableStores(infra);
  return {
    stage: infra.config.stage,
    clock: infra.clock,
    findKey: (hash) => apiKeys.findByHash(hash),
    touchKey: (hash, key, nowMs) => apiKeys.touch(hash, key, nowMs),
    hasGrant: (partnerId, fleetId) => fleets.hasGrant(partnerId, fleetId),
    plan: (name) => plans.get(name),
    counters,
  };
});

/**
 * A route's Lambda handler: the HTTP chain with the container's dependencies, built on the first
 * request that needs them (anonymous routes never do). Idempotent routes use idempotentHttpHandler
 * (./idempotent-http.ts) instead; this one refuses them when the handler is built.
 *
 * @example
 * export const handler = httpHandler(routes.getVehicle, async ({ params }, context) => …);
 */
export function httpHandler<R extends RouteDefinition>(route: R, implementation: RouteImplementation<R>) {
  return createHttpChain(route, implementation, () => httpChainDeps(), null);
}
