/**
 * The error registry (docs/api-guide.md#conventions, docs/validation.md): every code with its status, title and hint, exactly as
 * published. Handlers throw `ApiError`; one middleware renders it as problem+json.
 */
export const ERROR_REGISTRY = {
  missing_api_key: { status: 401, title: 'API key missing', hint: 'send the Authorization bearer header' },
  invalid_api_key: { status: 401, title: 'API key invalid', hint: 'check the key' },
  key_revoked: { status: 401, title: 'API key revoked', hint: 'create a new key' },
  key_suspended: {
    status: 403,
    title: 'API key suspended',
    hint: 'billing or abuse reason; contact support',
  },
  sandbox_key_on_production: {
    status: 403,
    title: 'Sandbox key used against production',
    hint: 'use a production key, or call the sandbox base URL',
  },
  insufficient_scope: {
    status: 403,
    title: 'Key lacks required scope',
    hint: 'request a key with the scope; GET /v1/me lists scopes',
  },
  fleet_header_required: {
    status: 400,
    title: 'Fleet header required',
    hint: 'partner keys select the fleet with the fleet header',
  },
  fleet_scope_mismatch: {
    status: 403,
    title: 'Fleet does not match key scope',
    hint: 'header names a fleet the key is not authorized for',
  },
  auth_unavailable: {
    status: 503,
    title: 'Auth service temporarily unavailable',
    hint: 'transient; retry with backoff',
  },
  validation_failed: { status: 422, title: 'Request failed validation', hint: 'fix the fields in `errors`' },
  unsupported_media_type: {
    status: 415,
    title: 'Request body must be JSON',
    hint: 'send `Content-Type: application/json`',
  },
  invalid_cursor: {
    status: 400,
    title: 'Pagination cursor invalid or expired',
    hint: 'restart without a cursor',
  },
  invalid_public_id: {
    status: 400,
    title: 'Public id has wrong prefix or is malformed',
    hint: 'check the prefix',
  },
  batch_too_large: { status: 413, title: 'Batch exceeds item or size limit', hint: 'split the batch' },
  resource_conflict: {
    status: 409,
    title: 'Resource conflicts with an existing one',
    hint: 'for example a duplicate external_ref from a concurrent request',
  },
  idempotency_key_required: {
    status: 400,
    title: 'Idempotency-Key header required',
    hint: 'send a unique key of at most 64 characters',
  },
  idempotency_key_reuse: {
    status: 422,
    title: 'Key reused with a different body',
    hint: 'new key, or resend the same body',
  },
  idempotency_conflict: {
    status: 409,
    title: 'Request with this key in flight',
    hint: 'wait, then retry with the same key',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limit exceeded',
    hint: 'retry after `retry_after` or the `X-RateLimit-Reset` header',
  },
  quota_exceeded: { status: 429, title: 'Monthly quota exceeded', hint: 'wait for reset or upgrade' },
  station_budget_exceeded: {
    status: 429,
    title: 'Station-query budget exceeded for this plan',
    hint: 'reduce station queries or upgrade',
  },
  enumeration_suspected: {
    status: 403,
    title: 'Request pattern flagged as station-data enumeration',
    hint: 'reduce breadth and frequency of station queries',
  },
  resource_not_found: {
    status: 404,
    title: 'Resource not found',
    hint: 'id missing or not in the authenticated fleet; also unknown routes',
  },
  no_active_guidance: {
    status: 404,
    title: 'No active guidance session for this vehicle',
    hint: 'start one with POST /v1/vehicles/{id}/guidance',
  },
  unknown_vehicle: {
    status: 404,
    title: 'No matching vehicle found',
    hint: 'create the vehicle or check id and external_ref',
  },
  invalid_trip_state: {
    status: 409,
    title: 'Trip state does not allow this transition',
    hint: 'check status',
  },
  trip_not_editable: {
    status: 409,
    title: 'Trip can no longer be edited',
    hint: 'only `planned` trips can be edited',
  },
  fuel_stop_immutable: {
    status: 422,
    title: 'Fuel stops are system-managed',
    hint: 'edit non-fuel stops, or call optimize',
  },
  vehicle_inactive: { status: 409, title: 'Vehicle is deactivated', hint: 'reactivate first' },
  event_expired: {
    status: 410,
    title: 'Webhook event past its replay window',
    hint: 'cannot be fetched or redelivered',
  },
  route_computation_timeout: {
    status: 504,
    title: 'Route computation exceeded the time limit',
    hint: 'retry; simplify constraints',
  },
  route_capacity: { status: 503, title: 'Routing engine at capacity', hint: 'transient; retry with backoff' },
  insufficient_fuel_data: {
    status: 422,
    title: 'Not enough fuel data to compute a projection',
    hint: 'set tank_size_gallons and estimated_mpg via PATCH /v1/vehicles/{id}',
  },
  routing_unreachable: {
    status: 502,
    title: 'No drivable route between the points',
    hint: 'verify both points are reachable by road',
  },
  // Our addition (a new code breaks no client): a company asked for a live key before the operator
  // approved its production access.
  production_access_required: {
    status: 403,
    title: 'Production access not approved',
    hint: 'request it with POST /v1/production-access; sandbox (test) keys are always allowed',
  },
  // Our addition: POST /v1/locations rejects the items it could not store with this code (the rest
  // are accepted), and answers the whole request with it only when nothing could be stored. Any
  // other request answers it (with Retry-After) when storage throttled or timed out past the SDK's retries.
  storage_unavailable: {
    status: 503,
    title: 'Storage temporarily unavailable',
    hint: 'transient; retry these items with backoff (resending is safe: a breadcrumb is stored once)',
  },
  // Our addition (a new code breaks no client): a known path called with a method it does not
  // serve. The response carries the `Allow` header listing the methods it does.
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed on this path',
    hint: 'use one of the methods in the `Allow` header',
  },
  // Our additions (a new code breaks no client): refusals of a request that never reaches a
  // function, made by the local stack's HTTP server in the envelope (docs/limits.md, "Transport
  // limits"). Deployed, API Gateway makes these refusals itself, in its own format.
  payload_too_large: {
    status: 413,
    title: 'Request body too large',
    hint: 'send at most 10 MB in one request; split the data over several requests',
  },
  headers_too_large: {
    status: 431,
    title: 'Request line and headers too large',
    hint: 'keep the URL and headers within 10,240 bytes; send long inputs in a JSON body',
  },
  malformed_request: {
    status: 400,
    title: 'Request is not valid HTTP',
    hint: 'check the request line (method, path, HTTP version) and the header syntax',
  },
  // Our addition to the spec's registry: the answer to a fault of ours, rendered in the same
  // envelope so no stack trace ever leaks, and listed by GET /v1/errors so its `type` resolves.
  internal_error: {
    status: 500,
    title: 'Internal error',
    hint: 'retry later; quote request_id to support if it persists',
  },
} as const satisfies Record<string, { status: number; title: string; hint: string }>;

export type ErrorCode = keyof typeof ERROR_REGISTRY;

export interface FieldError {
  field: string;
  message: string;
}

/** Extra members some codes carry (docs/api-guide.md#conventions). */
export interface ProblemExtensions {
  errors?: FieldError[];
  /** With `errors`: true when more problems were found than `errors` lists (it is bounded). */
  errors_truncated?: boolean;
  /** With `errors_truncated`: how many problems were found in all. */
  error_count?: number;
  required_scope?: string;
  /** On method_not_allowed: what the `Allow` header says, readable without parsing headers. */
  allowed_methods?: string[];
  limit?: number;
  used?: number;
  retry_after?: number;
  /** On enumeration_suspected: when the key's station queries are answered again. */
  cool_down_until?: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: string;
  readonly hint: string;
  readonly extensions: ProblemExtensions;
  /** Response headers that belong to this error, e.g. Retry-After on 429. */
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { hint?: string; extensions?: ProblemExtensions; headers?: Record<string, string> } = {},
  ) {
    super(`${code}: ${detail}`);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_REGISTRY[code].status;
    this.detail = detail;
    this.hint = options.hint ?? ERROR_REGISTRY[code].hint;
    this.extensions = options.extensions ?? {};
    this.headers = options.headers ?? {};
  }
}

export const notFound = (what: string) => new ApiError('resource_not_found', `${what} was not found.`);

/** A batch of more items than a route accepts; `items` names them (`fuelings`, `items`). */
export const batchTooLarge = (count: number, max: number, items: string) =>
  new ApiError('batch_too_large', `The batch has ${count} ${items}; at most ${max} are accepted.`);

/** A batch item's hint when it names no vehicle of the fleet; `which` is its id or `with external_ref …`. */
export const unknownVehicleHint = (which: string) =>
  `no vehicle ${which} in this fleet; create it with POST /v1/vehicles or check the id`;

/** The registry URL every problem's `type` points into (served by GET /v1/errors). */
export const ERROR_REGISTRY_PATH = '/v1/errors';

export interface Problem extends ProblemExtensions {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  hint: string;
  request_id: string;
}

export function toProblem(error: ApiError, requestId: string, baseUrl: string): Problem {
  return {
    type: `${baseUrl}${ERROR_REGISTRY_PATH}#${error.code}`,
    title: ERROR_REGISTRY[error.code].title,
    status: error.status,
    code: error.code,
    detail: error.detail,
    hint: error.hint,
    request_id: requestId,
    ...error.extensions,
  };
}
