import polyline from '@mapbox/polyline';
import type { GeoProjection } from 'd3-geo';
import { type MapPoint, projectPoint } from './projection.ts';

/**
 * A truck's route (`route_polyline`, Google encoded polyline, precision 5) as SVG path data on the
 * map. Points the projection cannot place (outside the US insets) break the line rather than
 * drawing a chord across the map; consecutive points on the same tenth of a pixel are dropped, so
 * a long route of dense points stays a short path.
 *
 * @example
 * routePathData('_p~iF~ps|U_ulLnnqC', mapProjection()); // 'M…,…L…,…'
 */
export function routePathData(encoded: string, projection: GeoProjection): string {
  const segments = routeSegments(polyline.decode(encoded, 5), projection);
  return segments
    .map((points) => points.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x},${point.y}`).join(''))
    .join('');
}

/** The projected runs of a decoded polyline ([latitude, longitude] pairs), split where a point has no place. */
export function routeSegments(
  coordinates: readonly [number, number][],
  projection: GeoProjection,
): MapPoint[][] {
  const segments: MapPoint[][] = [];
  let current: MapPoint[] = [];
  for (const [latitude, longitude] of coordinates) {
    const point = projectPoint(projection, latitude, longitude);
    if (!point) {
      if (current.length > 1) segments.push(current);
      current = [];
      continue;
    }
    const last = current.at(-1);
    if (last && last.x === point.x && last.y === point.y) continue;
    current.push(point);
  }
  if (current.length > 1) segments.push(current);
  return segments;
}
