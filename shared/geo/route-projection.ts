import { type GeoPoint, haversineMiles, milesRulerAt, toLonLat } from '#shared/kernel/distance.ts';
import type { RouteLine } from './routing-engine.ts';

/** Where a point (a station) sits relative to a route. */
export interface RouteProjection {
  /** Road miles from the route start to the point's foot on the route. */
  milesAlongRoute: number;
  /** Great-circle miles from the point to its foot on the route (one way, not a detour). */
  offRouteMiles: number;
  /** The foot: the nearest point of the route line. */
  nearestPoint: GeoPoint;
}

/**
 * Prepares a route for many projections (a corridor query projects every candidate station).
 * The nearest segment is found with a cheap-ruler at the point's own latitude, accurate where it
 * matters (the few miles between a station and the road), then the foot's distance is measured
 * with haversine. Miles along come from the line's cumulative road miles, interpolated.
 *
 * @example
 * const project = createRouteProjector(route);
 * const { milesAlongRoute, offRouteMiles } = project({ latitude: 41.14, longitude: -100.76 });
 */
export function createRouteProjector(line: RouteLine): (point: GeoPoint) => RouteProjection {
  if (line.points.length < 2 || line.cumulativeMiles.length !== line.points.length) {
    throw new RangeError('a route line needs at least two points and one cumulative mile per point');
  }
  const coordinates = line.points.map(toLonLat);
  return (point) => {
    const ruler = milesRulerAt(point.latitude);
    const { point: foot, index, t } = ruler.pointOnLine(coordinates, toLonLat(point));
    const start = line.cumulativeMiles[index] ?? 0;
    const end = line.cumulativeMiles[index + 1] ?? start;
    const nearestPoint = { latitude: foot[1], longitude: foot[0] };
    return {
      milesAlongRoute: start + t * (end - start),
      offRouteMiles: haversineMiles(point, nearestPoint),
      nearestPoint,
    };
  };
}

/** One-off projection of a point onto a route; use `createRouteProjector` for many points. */
export function projectOntoRoute(line: RouteLine, point: GeoPoint): RouteProjection {
  return createRouteProjector(line)(point);
}
