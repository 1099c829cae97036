import polyline from '@mapbox/polyline';
import { type GeoPoint, haversineMiles, interpolateGreatCircle } from '#shared/kernel/distance.ts';

/** Google's encoded polyline precision used across the API (docs/units-and-numbers.md#precision). */
export const POLYLINE_PRECISION = 5;

/** Route geometry has a point at least every this many miles, so stations map onto it finely. */
export const MAX_POINT_SPACING_MILES = 5;

const SCALE = 10 ** POLYLINE_PRECISION;

/** Rounds a point to the polyline's precision (1e-5°, about 1 m), so encoding loses nothing more. */
export function roundToPolylinePrecision(point: GeoPoint): GeoPoint {
  return {
    latitude: Math.round(point.latitude * SCALE) / SCALE,
    longitude: Math.round(point.longitude * SCALE) / SCALE,
  };
}

/**
 * Encodes points as a Google polyline, precision 5.
 *
 * @example
 * encodeRoutePolyline([{ latitude: 38.5, longitude: -120.2 }, { latitude: 40.7, longitude: -120.95 }]); // '_p~iF~ps|U_ulLnnqC'
 */
export function encodeRoutePolyline(points: readonly GeoPoint[]): string {
  return polyline.encode(
    points.map((point) => [point.latitude, point.longitude]),
    POLYLINE_PRECISION,
  );
}

/**
 * Decodes a Google polyline, precision 5, into points. Throws `RangeError` on a string that does
 * not decode to valid coordinates, so a malformed client polyline is rejected rather than routed.
 */
export function decodeRoutePolyline(encoded: string): GeoPoint[] {
  const points = polyline.decode(encoded, POLYLINE_PRECISION).map(([latitude, longitude]) => ({
    latitude,
    longitude,
  }));
  for (const { latitude, longitude } of points) {
    if (!(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180)) {
      throw new RangeError('polyline decodes to coordinates outside latitude ±90 / longitude ±180');
    }
  }
  return points;
}

/**
 * Inserts great-circle points so no two consecutive points are more than `maxSpacingMiles` apart.
 * The input points are kept as they are; the inserted ones are evenly spaced between them.
 */
export function densify(points: readonly GeoPoint[], maxSpacingMiles = MAX_POINT_SPACING_MILES): GeoPoint[] {
  if (!(maxSpacingMiles > 0)) throw new RangeError('maxSpacingMiles must be positive');
  const first = points[0];
  if (!first) return [];
  const dense: GeoPoint[] = [first];
  for (let i = 1; i < points.length; i++) {
    const from = points[i - 1] as GeoPoint;
    const to = points[i] as GeoPoint;
    // A hair under the limit, so rounding the inserted points to 1e-5° cannot push a gap over it.
    const pieces = Math.ceil(haversineMiles(from, to) / (maxSpacingMiles * 0.999));
    for (let piece = 1; piece < pieces; piece++) dense.push(interpolateGreatCircle(from, to, piece / pieces));
    dense.push(to);
  }
  return dense;
}
