import { describe, expect, it } from 'vitest';
import {
  isRoutingFailure,
  RouteCapacityError,
  RouteTimeoutError,
  RoutingUnreachableError,
} from '#shared/geo/routing-errors.ts';

describe('isRoutingFailure', () => {
  it.each([
    new RoutingUnreachableError('destination', { latitude: 21.3, longitude: -157.9 }, 2400, 200),
    new RouteTimeoutError(2000, 2013),
    new RouteCapacityError('throttled'),
  ])('holds for %s', (error) => {
    expect(isRoutingFailure(error)).toBe(true);
  });

  it('does not hold for any other error', () => {
    expect(isRoutingFailure(new TypeError('boom'))).toBe(false);
    expect(isRoutingFailure(new Error('Route computation took over 2000 ms'))).toBe(false);
  });
});
