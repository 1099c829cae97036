import { RouteCapacityError, RouteTimeoutError, RoutingUnreachableError } from '../geo/routing-errors.ts';
import { ApiError } from './errors.ts';

/**
 * The problem a domain error answers with, or null when the error is none the API has words for
 * (an ApiError already, or a fault of ours). The HTTP chain's one `onError` asks this, so the
 * layers below throw their own errors and only this module knows the codes they become.
 */
export function apiErrorForDomainError(error: unknown): ApiError | null {
  if (error instanceof RoutingUnreachableError) {
    // The engine's own message says what it knows (the embedded graph: how far off; Amazon: its reason).
    return new ApiError('routing_unreachable', error.message);
  }
  if (error instanceof RouteTimeoutError) {
    return new ApiError(
      'route_computation_timeout',
      `The route took longer than ${error.budgetMs} ms to compute.`,
    );
  }
  if (error instanceof RouteCapacityError) return new ApiError('route_capacity', error.message);
  return null;
}
