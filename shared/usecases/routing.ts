import type { RouteRequest, RouteResult, RoutingEngine } from '../geo/routing-engine.ts';
import { RouteTimeoutError, RoutingUnreachableError } from '../geo/routing-errors.ts';
import { ApiError } from '../platform/errors.ts';

/** The routing engine's failures in the API's words (502 / 504); anything else is ours. */
export async function routeOrProblem(engine: RoutingEngine, request: RouteRequest): Promise<RouteResult> {
  try {
    return await engine.route(request);
  } catch (error) {
    if (error instanceof RoutingUnreachableError) {
      // The engine's own message says what it knows (the embedded graph: how far off; Amazon: its reason).
      throw new ApiError('routing_unreachable', error.message);
    }
    if (error instanceof RouteTimeoutError) {
      throw new ApiError(
        'route_computation_timeout',
        `The route took longer than ${error.budgetMs} ms to compute.`,
      );
    }
    throw error;
  }
}

const ROUTING_FAILURES = new Set<string>([
  'routing_unreachable',
  'route_computation_timeout',
  'route_capacity',
]);

/** The routing engine could not answer (as routeOrProblem words it): worth another try later, not a crash. */
export function isRoutingFailure(error: unknown): error is ApiError {
  return error instanceof ApiError && ROUTING_FAILURES.has(error.code);
}
