import {
  RouteCapacityError,
  RouteTimeoutError,
  RoutingUnreachableError,
} from '#shared/geo/routing-errors.ts';
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
  if (isTransientAwsError(error)) {
    return new ApiError(
      'storage_unavailable',
      'Storage is busy or unreachable right now (throttled or timed out).',
      {
        hint: 'transient; retry with backoff after Retry-After seconds (a POST is safe to resend with the same Idempotency-Key; breadcrumbs are stored once)',
        headers: { 'Retry-After': String(TRANSIENT_RETRY_AFTER_SECONDS) },
      },
    );
  }
  return null;
}

/** How long a client is asked to wait after a transient storage or auth-backend failure. */
const TRANSIENT_RETRY_AFTER_SECONDS = 1;

/**
 * 503 `auth_unavailable`: the key, its plan or its account could not be read, so the request can
 * be neither accepted nor refused. Retry-After as on `storage_unavailable`.
 */
export function authUnavailable(detail: string): ApiError {
  return new ApiError('auth_unavailable', detail, {
    headers: { 'Retry-After': String(TRANSIENT_RETRY_AFTER_SECONDS) },
  });
}

/** What the AWS SDK throws, after its own retries, when DynamoDB or SQS is throttling or unreachable. */
const TRANSIENT_AWS_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TransactionConflictException',
  'TimeoutError',
  'AbortError',
]);
const TRANSIENT_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN']);

/**
 * A failure a retry may not meet: throttling, a timeout, a dropped connection, a 5xx from the
 * service. Matched by name and code, not class: errors cross bundles and mocks.
 */
export function isTransientAwsError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, $retryable, $metadata } = error as {
    name?: string;
    code?: string;
    $retryable?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  return (
    Boolean($retryable) ||
    TRANSIENT_AWS_ERRORS.has(name ?? '') ||
    TRANSIENT_NETWORK_CODES.has(code ?? '') ||
    ($metadata?.httpStatusCode ?? 0) >= 500
  );
}
