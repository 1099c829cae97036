import { describe, expect, it } from 'vitest';
import {
  RouteCapacityError,
  RouteTimeoutError,
  RoutingUnreachableError,
} from '#shared/geo/routing-errors.ts';
import { routingFailureReason } from '#shared/truck-routes/usecases/routing-failure-reason.ts';

// plan_reason is stored and published: these strings are what sessions already hold.
describe('routingFailureReason', () => {
  it.each([
    [
      new RoutingUnreachableError('origin', { latitude: 30, longitude: -140 }, 812, 200),
      'routing_unreachable: The origin (30, -140) is 812 miles from the nearest road in the network; the limit is 200 miles.',
    ],
    [
      new RouteTimeoutError(2000, 2013),
      'route_computation_timeout: The route took longer than 2000 ms to compute.',
    ],
    [
      new RouteCapacityError('Amazon Location Service is throttling route requests.'),
      'route_capacity: Amazon Location Service is throttling route requests.',
    ],
  ])('words %s as the API’s code and detail', (failure, reason) => {
    expect(routingFailureReason(failure)).toBe(reason);
  });
});
