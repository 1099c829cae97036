import type { RoutingFailure } from '#shared/geo/routing-errors.ts';
import { apiErrorForDomainError } from '#shared/platform/domain-errors.ts';

/**
 * A session's `planReason` when routing could not answer. It has always been the failure as the
 * API words it (`routing_unreachable: …`, the problem's code and detail), and it is stored and
 * published as `plan_reason`, so it is taken from the HTTP chain's own mapping rather than a copy.
 */
export function routingFailureReason(failure: RoutingFailure): string {
  return (apiErrorForDomainError(failure) ?? failure).message;
}
