import { createHttpChain, type RouteImplementation } from './chain.ts';
import { createIdempotentRunner } from './idempotency.ts';
import type { PlatformDeps } from './platform-deps.ts';
import type { RouteDefinition } from './route-definition.ts';

export {
  createFallbackHandler,
  createHttpChain,
  createOperatorHandler,
  type OperatorChainDeps,
  type OperatorContext,
  type OperatorRouteImplementation,
  type RouteImplementation,
} from './chain.ts';

/**
 * The HTTP chain of any route, idempotent ones included (chain.ts has the chain itself). Lambda
 * handlers go through shared/wiring/http.ts, whose non-idempotent routes leave the idempotency
 * runner, and Powertools idempotency with it, out of their bundles.
 *
 * @example
 * const handler = createHttpHandler(routes.createTrip, async ({ body }, context) => …, () => deps);
 */
export function createHttpHandler<R extends RouteDefinition>(
  route: R,
  implementation: RouteImplementation<R>,
  deps: () => PlatformDeps,
) {
  return createHttpChain(route, implementation, deps, route.idempotent ? createIdempotentRunner : null);
}
