import { describe, expect, it } from 'vitest';
import type { RoutingEngine } from '../../../shared/geo/routing-engine.ts';
import { RouteTimeoutError, RoutingUnreachableError } from '../../../shared/geo/routing-errors.ts';
import { ApiError } from '../../../shared/platform/errors.ts';
import { routeOrProblem } from '../../../shared/usecases/routing.ts';

const failingWith = (error: Error): RoutingEngine => ({ route: async () => Promise.reject(error) });
const request = {
  origin: { latitude: 30, longitude: -140 },
  destination: { latitude: 39.7, longitude: -105 },
};

describe('routing failures in the API’s words', () => {
  it('maps an unreachable point to 502 routing_unreachable, keeping the engine’s explanation', async () => {
    const error = await routeOrProblem(
      failingWith(new RoutingUnreachableError('origin', request.origin, 812, 200)),
      request,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'routing_unreachable', status: 502 });
    expect((error as ApiError).detail).toContain('812');
  });

  it('maps a timeout to 504 route_computation_timeout', async () => {
    const error = await routeOrProblem(failingWith(new RouteTimeoutError(2000, 2013)), request).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'route_computation_timeout', status: 504 });
  });

  it('passes an ApiError of the engine (503 route_capacity) and anything else through unchanged', async () => {
    const capacity = new ApiError('route_capacity', 'throttled');
    expect(await routeOrProblem(failingWith(capacity), request).catch((e: unknown) => e)).toBe(capacity);
    const bug = new TypeError('boom');
    expect(await routeOrProblem(failingWith(bug), request).catch((e: unknown) => e)).toBe(bug);
  });
});
