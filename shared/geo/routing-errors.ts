import type { GeoPoint } from '#shared/kernel/distance.ts';

/**
 * The routing engine could not answer this request; a later try may. Callers that can carry on
 * without a route (the guidance worker keeps its plan) catch these and nothing else: any other
 * error is a fault of ours.
 */
export abstract class RoutingFailure extends Error {}

export const isRoutingFailure = (error: unknown): error is RoutingFailure => error instanceof RoutingFailure;

/** A point too far from any road the engine knows (open ocean, Hawaii, Alaska). */
export class RoutingUnreachableError extends RoutingFailure {
  /** Which end of the request could not be joined to the network. */
  readonly endpoint: 'origin' | 'destination';
  readonly point: GeoPoint;
  /** Great-circle miles from the point to the nearest network node. */
  readonly nearestNetworkMiles: number;
  readonly snapLimitMiles: number;

  constructor(
    endpoint: 'origin' | 'destination',
    point: GeoPoint,
    nearestNetworkMiles: number,
    snapLimitMiles: number,
    options: { detail?: string } = {},
  ) {
    super(
      options.detail ??
        `The ${endpoint} (${point.latitude}, ${point.longitude}) is ${Math.round(nearestNetworkMiles)} miles ` +
          `from the nearest road in the network; the limit is ${snapLimitMiles} miles.`,
    );
    this.name = 'RoutingUnreachableError';
    this.endpoint = endpoint;
    this.point = point;
    this.nearestNetworkMiles = nearestNetworkMiles;
    this.snapLimitMiles = snapLimitMiles;
  }
}

/** The computation ran past its time budget. */
export class RouteTimeoutError extends RoutingFailure {
  readonly budgetMs: number;
  readonly elapsedMs: number;

  constructor(budgetMs: number, elapsedMs: number) {
    super(`Route computation took over ${budgetMs} ms (stopped at ${Math.round(elapsedMs)} ms).`);
    this.name = 'RouteTimeoutError';
    this.budgetMs = budgetMs;
    this.elapsedMs = elapsedMs;
  }
}

/** The routing provider is throttling us or failing (a 5xx, unreachable); the message names the provider. */
export class RouteCapacityError extends RoutingFailure {
  constructor(message: string) {
    super(message);
    this.name = 'RouteCapacityError';
  }
}
