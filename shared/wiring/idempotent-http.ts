import type { RouteImplementation } from '#shared/platform/http/chain.ts';
import { createHttpHandler } from '#shared/platform/http/handler.ts';
import { createIdempotencyStore } from '#shared/platform/http/idempotency.ts';
import type { PlatformDeps } from '#shared/platform/http/platform-deps.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { httpChainDeps } from './http.ts';
import { perInfrastructure } from './infrastructure.ts';

/** The HTTP chain's dependencies plus the idempotency records (Powertools, in the single table). */
export const idempotentChainDeps = /* @__PURE__ */ perInfrastructure(
  (infra): PlatformDeps => ({
    ...httpChainDeps(infra),
    idempotencyStore: (operationId) =>
      createIdempotencyStore(infra.config.tableName, infra.dynamo, operationId),
  }),
);

/**
 * An idempotent route's Lambda handler (`idempotent: true` in its definition): httpHandler's chain
 * plus the Idempotency-Key replay. A module of its own so that only these routes bundle Powertools
 * idempotency.
 *
 * @example
 * export const handler = idempotentHttpHandler(tripOperations.createTrip, async ({ body }, context) => …);
 */
export function idempotentHttpHandler<R extends RouteDefinition>(
  route: R,
  implementation: RouteImplementation<R>,
) {
  return createHttpHandler(route, implementation, () => idempotentChainDeps());
}
