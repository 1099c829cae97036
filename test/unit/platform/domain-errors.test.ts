import { describe, expect, it } from 'vitest';
import {
  RouteCapacityError,
  RouteTimeoutError,
  RoutingUnreachableError,
} from '#shared/geo/routing-errors.ts';
import { apiErrorForDomainError, isTransientAwsError } from '#shared/platform/domain-errors.ts';
import { ApiError } from '#shared/platform/errors.ts';

const origin = { latitude: 30, longitude: -140 };

describe('routing failures in the API’s words', () => {
  it('maps an unreachable point to 502 routing_unreachable, keeping the engine’s explanation', () => {
    const engineError = new RoutingUnreachableError('origin', origin, 812, 200);
    const error = apiErrorForDomainError(engineError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'routing_unreachable', status: 502 });
    expect(error?.detail).toContain('812');
    expect(error?.detail).toBe(engineError.message);
  });

  it('maps a timeout to 504 route_computation_timeout', () => {
    const error = apiErrorForDomainError(new RouteTimeoutError(2000, 2013));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'route_computation_timeout',
      status: 504,
      detail: 'The route took longer than 2000 ms to compute.',
    });
  });

  it('maps a throttling provider to 503 route_capacity, keeping the engine’s explanation', () => {
    const error = apiErrorForDomainError(new RouteCapacityError('throttled'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'route_capacity', status: 503, detail: 'throttled' });
  });

  it('leaves an ApiError and anything else to the chain unchanged', () => {
    expect(apiErrorForDomainError(new ApiError('route_capacity', 'throttled'))).toBeNull();
    expect(apiErrorForDomainError(new TypeError('boom'))).toBeNull();
  });
});

describe('transient storage failures in the API’s words', () => {
  const awsError = (name: string, extra: Record<string, unknown> = {}) =>
    Object.assign(new Error(`${name} happened`), { name, ...extra });

  it('maps throttling, timeouts, dropped connections and 5xx to 503 storage_unavailable with Retry-After', () => {
    for (const error of [
      awsError('ProvisionedThroughputExceededException'),
      awsError('ThrottlingException'),
      awsError('TimeoutError'),
      awsError('Error', { code: 'ECONNRESET' }),
      awsError('InternalServerError', { $metadata: { httpStatusCode: 500 } }),
      awsError('SomethingNew', { $retryable: { throttling: true } }),
    ]) {
      const problem = apiErrorForDomainError(error);
      expect(problem, error.name).toMatchObject({ code: 'storage_unavailable', status: 503 });
      expect(problem?.headers['Retry-After']).toBe('1');
      expect(problem?.hint).toContain('retry');
    }
  });

  it('leaves what a retry would meet again to the chain: a failed condition, a validation error, our own faults', () => {
    for (const error of [
      awsError('ConditionalCheckFailedException', { $metadata: { httpStatusCode: 400 } }),
      awsError('ValidationException', { $metadata: { httpStatusCode: 400 } }),
      new TypeError('boom'),
    ]) {
      expect(isTransientAwsError(error), error.name).toBe(false);
      expect(apiErrorForDomainError(error)).toBeNull();
    }
  });
});
