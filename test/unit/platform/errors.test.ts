import { describe, expect, it } from 'vitest';
import {
  ApiError,
  batchTooLarge,
  ERROR_REGISTRY,
  type ErrorCode,
  toProblem,
} from '#shared/platform/errors.ts';

/** Spec section 7, "Registry", copied row by row: code, HTTP status, title, hint. */
const SPEC_REGISTRY: readonly [code: string, status: number, title: string, hint: string][] = [
  ['missing_api_key', 401, 'API key missing', 'send the Authorization bearer header'],
  ['invalid_api_key', 401, 'API key invalid', 'check the key'],
  ['key_revoked', 401, 'API key revoked', 'create a new key'],
  ['key_suspended', 403, 'API key suspended', 'billing or abuse reason; contact support'],
  [
    'sandbox_key_on_production',
    403,
    'Sandbox key used against production',
    'use a production key, or call the sandbox base URL',
  ],
  [
    'insufficient_scope',
    403,
    'Key lacks required scope',
    'request a key with the scope; GET /v1/me lists scopes',
  ],
  [
    'fleet_header_required',
    400,
    'Fleet header required',
    'partner keys select the fleet with the fleet header',
  ],
  [
    'fleet_scope_mismatch',
    403,
    'Fleet does not match key scope',
    'header names a fleet the key is not authorized for',
  ],
  ['auth_unavailable', 503, 'Auth service temporarily unavailable', 'transient; retry with backoff'],
  ['validation_failed', 422, 'Request failed validation', 'fix the fields in `errors`'],
  ['unsupported_media_type', 415, 'Request body must be JSON', 'send `Content-Type: application/json`'],
  ['invalid_cursor', 400, 'Pagination cursor invalid or expired', 'restart without a cursor'],
  ['invalid_public_id', 400, 'Public id has wrong prefix or is malformed', 'check the prefix'],
  ['batch_too_large', 413, 'Batch exceeds item or size limit', 'split the batch'],
  [
    'resource_conflict',
    409,
    'Resource conflicts with an existing one',
    'for example a duplicate external_ref from a concurrent request',
  ],
  [
    'idempotency_key_required',
    400,
    'Idempotency-Key header required',
    'send a unique key of at most 64 characters',
  ],
  ['idempotency_key_reuse', 422, 'Key reused with a different body', 'new key, or resend the same body'],
  ['idempotency_conflict', 409, 'Request with this key in flight', 'wait, then retry with the same key'],
  ['rate_limited', 429, 'Rate limit exceeded', 'retry after `retry_after` or the `X-RateLimit-Reset` header'],
  ['quota_exceeded', 429, 'Monthly quota exceeded', 'wait for reset or upgrade'],
  [
    'station_budget_exceeded',
    429,
    'Station-query budget exceeded for this plan',
    'reduce station queries or upgrade',
  ],
  [
    'enumeration_suspected',
    403,
    'Request pattern flagged as station-data enumeration',
    'reduce breadth and frequency of station queries',
  ],
  [
    'resource_not_found',
    404,
    'Resource not found',
    'id missing or not in the authenticated fleet; also unknown routes',
  ],
  [
    'no_active_guidance',
    404,
    'No active guidance session for this vehicle',
    'start one with POST /v1/vehicles/{id}/guidance',
  ],
  ['unknown_vehicle', 404, 'No matching vehicle found', 'create the vehicle or check id and external_ref'],
  ['invalid_trip_state', 409, 'Trip state does not allow this transition', 'check status'],
  ['trip_not_editable', 409, 'Trip can no longer be edited', 'only `planned` trips can be edited'],
  ['fuel_stop_immutable', 422, 'Fuel stops are system-managed', 'edit non-fuel stops, or call optimize'],
  ['vehicle_inactive', 409, 'Vehicle is deactivated', 'reactivate first'],
  ['event_expired', 410, 'Webhook event past its replay window', 'cannot be fetched or redelivered'],
  [
    'route_computation_timeout',
    504,
    'Route computation exceeded the time limit',
    'retry; simplify constraints',
  ],
  ['route_capacity', 503, 'Routing engine at capacity', 'transient; retry with backoff'],
  [
    'insufficient_fuel_data',
    422,
    'Not enough fuel data to compute a projection',
    'set tank_size_gallons and estimated_mpg via PATCH /v1/vehicles/{id}',
  ],
  [
    'routing_unreachable',
    502,
    'No drivable route between the points',
    'verify both points are reachable by road',
  ],
];

/**
 * Codes we add to the published registry, and why: a fault of ours still answers in the envelope;
 * ingest says which breadcrumbs to resend when storage failed for them; the local stack refuses a
 * request that breaks API Gateway's limits in the envelope too.
 */
const OUR_ADDITIONS = [
  'internal_error',
  'storage_unavailable',
  'method_not_allowed',
  'production_access_required',
  'payload_too_large',
  'headers_too_large',
  'malformed_request',
];

describe('ERROR_REGISTRY', () => {
  it.each(SPEC_REGISTRY)('publishes %s as %i "%s" with the spec hint', (code, status, title, hint) => {
    // Prepare / Act
    const entry = (ERROR_REGISTRY as Record<string, unknown>)[code];

    // Assess
    expect(entry).toEqual({ status, title, hint });
  });

  it('holds exactly the spec codes plus our own additions, nothing unpublished', () => {
    // Prepare
    const expected = [...SPEC_REGISTRY.map(([code]) => code), ...OUR_ADDITIONS].sort();

    // Act
    const actual = Object.keys(ERROR_REGISTRY).sort();

    // Assess
    expect(actual).toEqual(expected);
  });

  it('renders a fault of ours as a 500 that points the caller at support, not at a retry loop', () => {
    // Act
    const entry = ERROR_REGISTRY.internal_error;

    // Assess
    expect(entry.status).toBe(500);
    expect(entry.hint).toMatch(/request_id/);
  });
});

describe('ApiError', () => {
  it('takes status and hint from the registry', () => {
    // Act
    const error = new ApiError('vehicle_inactive', 'Vehicle veh_1 is deactivated.');

    // Assess
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(409);
    expect(error.hint).toBe('reactivate first');
    expect(error.extensions).toEqual({});
    expect(error.headers).toEqual({});
  });

  it('lets one occurrence give a more concrete hint than the registry', () => {
    // Act
    const error = new ApiError('vehicle_inactive', 'Vehicle veh_1 is deactivated.', {
      hint: 'reactivate first: POST /v1/vehicles/veh_1/reactivate',
    });

    // Assess
    expect(error.hint).toBe('reactivate first: POST /v1/vehicles/veh_1/reactivate');
  });
});

describe('toProblem', () => {
  const baseUrl = 'https://api.example.test';
  const requestId = 'req_01JD7ZK3M4N5P6Q7R8S9T0V1W2';

  it('carries the problem members in order, type anchored at the code', () => {
    // Prepare
    const error = new ApiError('invalid_cursor', 'The cursor has expired.');

    // Act
    const problem = toProblem(error, requestId, baseUrl);

    // Assess
    expect(Object.keys(problem)).toEqual(['type', 'title', 'status', 'code', 'detail', 'hint', 'request_id']);
    expect(problem).toEqual({
      type: 'https://api.example.test/v1/errors#invalid_cursor',
      title: 'Pagination cursor invalid or expired',
      status: 400,
      code: 'invalid_cursor',
      detail: 'The cursor has expired.',
      hint: 'restart without a cursor',
      request_id: requestId,
    });
  });

  it('adds the extension members a code carries after the standard ones', () => {
    // Prepare
    const error = new ApiError('insufficient_scope', 'This operation requires the scope vehicles:manage.', {
      extensions: { required_scope: 'vehicles:manage' },
    });

    // Act
    const problem = toProblem(error, requestId, baseUrl);

    // Assess
    expect(problem.required_scope).toBe('vehicles:manage');
    expect(Object.keys(problem).at(-1)).toBe('required_scope');
  });

  it.each(SPEC_REGISTRY)('renders %s with status %i and title "%s"', (code, status, title, hint) => {
    // Act
    const problem = toProblem(new ApiError(code as ErrorCode, 'Something specific.'), requestId, baseUrl);

    // Assess
    expect(problem).toMatchObject({ code, status, title, hint, detail: 'Something specific.' });
    expect(problem.type).toBe(`${baseUrl}/v1/errors#${code}`);
  });
});

describe('batchTooLarge', () => {
  it('says how many items came and how many a batch takes, in the words of the route', () => {
    const error = batchTooLarge(101, 100, 'fuelings');
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('batch_too_large');
    expect(error.detail).toBe('The batch has 101 fuelings; at most 100 are accepted.');
  });
});
