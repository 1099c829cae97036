import type { GeoPoint } from '#shared/kernel/distance.ts';
import type { RouteRequest } from './routing-engine.ts';
import { RouteCapacityError, RouteTimeoutError, RoutingUnreachableError } from './routing-errors.ts';

/**
 * Maps what a CalculateRoutes call threw — after the SDK's own retries — onto the port's failures:
 * - the budget running out, the SDK's `TimeoutError` (connection or request timeout) or
 *   `AbortError` → `RouteTimeoutError` (504 `route_computation_timeout`);
 * - `ThrottlingException`, `ServiceQuotaExceededException`, HTTP 429, `InternalServerException`
 *   or any 5xx, a dropped connection → `RouteCapacityError` (503 `route_capacity`): the provider
 *   cannot answer now, a retry later may;
 * - a `ValidationException` about a position the service cannot place on its road network →
 *   `RoutingUnreachableError` (502 `routing_unreachable`).
 * Everything else passes through unchanged and becomes a logged 500: `AccessDeniedException` (the
 * stage's role lacks `geo-routes:CalculateRoutes`, a deploy bug) and any other validation failure
 * (a request we built wrong).
 */
export function translateAmazonLocationError(
  error: unknown,
  request: RouteRequest,
  budgetMs: number,
  elapsedMs: number,
): unknown {
  if (error instanceof RouteTimeoutError || !(error instanceof Error)) return error;
  if (error.name === 'AbortError' || error.name === 'TimeoutError') {
    return new RouteTimeoutError(budgetMs, elapsedMs);
  }
  const { $metadata, code } = error as { $metadata?: { httpStatusCode?: number }; code?: string };
  const status = $metadata?.httpStatusCode ?? 0;
  if (
    error.name === 'ThrottlingException' ||
    error.name === 'ServiceQuotaExceededException' ||
    status === 429
  ) {
    return new RouteCapacityError('Amazon Location Service is throttling route requests.');
  }
  if (error.name === 'InternalServerException' || status >= 500) {
    return new RouteCapacityError(
      'Amazon Location Service failed to compute the route (a server error on its side).',
    );
  }
  if (code !== undefined && NETWORK_CODES.has(code)) {
    return new RouteCapacityError(`Amazon Location Service could not be reached (${code}).`);
  }
  if (error.name === 'ValidationException') return unroutable(error, request) ?? error;
  return error;
}

/** Connection failures the SDK retried and gave up on. */
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND']);

/**
 * Wording of a validation failure about the points rather than the request: a position the
 * service cannot match to a road, or no route between them. Other validation failures are our
 * bugs and stay errors.
 */
const UNROUTABLE_PATTERN =
  /\b(match(ed|ing)?|snap(ped|ping)?|road network|no (truck )?route|route not found|routenotfound|unreachable|not reachable|not routable|could not be (found|reached))\b/i;

function unroutable(error: Error, request: RouteRequest): RoutingUnreachableError | null {
  const fields = (error as { FieldList?: { Name?: string; Message?: string }[] }).FieldList ?? [];
  const text = [error.message, ...fields.flatMap((field) => [field.Name, field.Message])].join(' ');
  if (!UNROUTABLE_PATTERN.test(text)) return null;
  // The field the service names says which end; failing that, the message's wording.
  const named = fields.map((field) => field.Name?.toLowerCase() ?? '');
  const endpoint =
    named.includes('origin') && !named.includes('destination')
      ? 'origin'
      : named.includes('destination')
        ? 'destination'
        : /origin/i.test(text) && !/destination/i.test(text)
          ? 'origin'
          : 'destination';
  return unreachableError(request, endpoint, `Amazon Location could not route the truck: ${error.message}`);
}

/** The service names no distance to the network, so the error carries NaN for both figures. */
export function unreachableError(
  request: RouteRequest,
  endpoint: 'origin' | 'destination',
  detail: string,
): RoutingUnreachableError {
  const point: GeoPoint = request[endpoint];
  return new RoutingUnreachableError(endpoint, point, Number.NaN, Number.NaN, { detail });
}
