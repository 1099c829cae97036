import { type GeoPoint, haversineMiles, interpolateGreatCircle } from '#shared/kernel/distance.ts';
import { roundToHundredth } from '#shared/kernel/rounding.ts';
import { densify, MAX_POINT_SPACING_MILES, roundToPolylinePrecision } from './polyline.ts';
import type { RouteLine } from './routing-engine.ts';

/** A stretch of route: its drawn geometry and the road miles it stands for. */
export interface RoutePiece {
  geometry: readonly GeoPoint[];
  miles: number;
  /**
   * The geometry is already a slice of a drawn line (densified and rounded as this module draws
   * it, road-snap.ts): taken point for point, so it reads back as the segment it came from.
   */
  drawn?: boolean;
}

/**
 * Joins pieces into one densified line with road miles per point. Within a piece, miles are
 * spread in proportion to drawn length: the geometry is a sketch of the road (shape points), but
 * the piece's road miles are the figure fuel is planned on, so the line's last point carries the
 * route's road distance exactly.
 */
export function buildRouteLine(
  pieces: readonly RoutePiece[],
  maxSpacingMiles = MAX_POINT_SPACING_MILES,
): RouteLine {
  const points: GeoPoint[] = [];
  const cumulativeMiles: number[] = [];
  let milesBefore = 0;
  for (const piece of pieces) {
    const dense = piece.drawn
      ? [...piece.geometry]
      : densify(piece.geometry, maxSpacingMiles).map(roundToPolylinePrecision);
    const along = lengthsAlong(dense);
    const drawn = along.at(-1) ?? 0;
    const scale = drawn > 0 ? piece.miles / drawn : 0;
    dense.forEach((point, i) => {
      const previous = points.at(-1);
      if (previous && previous.latitude === point.latitude && previous.longitude === point.longitude) return;
      points.push(point);
      cumulativeMiles.push(roundToHundredth(milesBefore + (along[i] ?? 0) * scale));
    });
    milesBefore += piece.miles;
  }
  const last = points.at(-1);
  if (last && points.length === 1) {
    // A zero-length route is still a line: consumers (projection, polyline) expect two ends.
    points.push({ ...last });
    cumulativeMiles.push(cumulativeMiles[0] ?? 0);
  }
  if (cumulativeMiles.length > 0) cumulativeMiles[cumulativeMiles.length - 1] = roundToHundredth(milesBefore);
  return { points, cumulativeMiles };
}

/**
 * A line measured as drawn: each point's miles are great-circle miles along the line. (A polyline
 * a client sends is read by the routes' road-mile model instead: road-miles.ts.)
 */
export function routeLineFromPoints(points: readonly GeoPoint[]): RouteLine {
  return { points: [...points], cumulativeMiles: lengthsAlong(points).map(roundToHundredth) };
}

function lengthsAlong(points: readonly GeoPoint[]): number[] {
  const lengths: number[] = [];
  let total = 0;
  points.forEach((point, i) => {
    const previous = points[i - 1];
    if (previous) total += haversineMiles(previous, point);
    lengths.push(total);
  });
  return lengths;
}

/**
 * The point `miles` road miles from the start of `line`, clamped to its ends. Between two points of
 * the densified line (at most 5 miles apart) it follows the great circle.
 */
export function pointAtMiles(line: RouteLine, miles: number): GeoPoint {
  const { points, cumulativeMiles } = line;
  const high = cumulativeMiles.findIndex((at) => at >= miles);
  if (high <= 0) return points[high === 0 ? 0 : points.length - 1] as GeoPoint;
  const from = cumulativeMiles[high - 1] as number;
  const span = (cumulativeMiles[high] as number) - from;
  return interpolateGreatCircle(
    points[high - 1] as GeoPoint,
    points[high] as GeoPoint,
    span > 0 ? (miles - from) / span : 0,
  );
}
