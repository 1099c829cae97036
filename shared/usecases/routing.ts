import type { RouteRequest, RouteResult, RoutingEngine } from '../geo/routing-engine.ts';
import { RouteTimeoutError, RoutingUnreachableError } from '../geo/routing-errors.ts';
import { ApiError } from '../platform/errors.ts';

/** The routing engine's failures in the API's words (502 / 504); anything else is ours. */
export async function routeOrProblem(engine: RoutingEngine, request: RouteRequest): Promise<RouteResult> {
  try {
    return await engine.route(request);
  } catch (error) {
    if (error instanceof RoutingUnreachableError) {
      throw new ApiError(
        'routing_unreachable',
        `The ${error.endpoint} is ${Math.round(error.nearestNetworkMiles)} miles from the nearest road of the network (limit ${error.snapLimitMiles}).`,
      );
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
