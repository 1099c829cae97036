import CheapRuler from 'cheap-ruler';

/** A position in WGS84 degrees, named the way the API names it. */
export interface GeoPoint {
  latitude: number;
  longitude: number;
}

/** Mean Earth radius in statute miles (IUGG mean radius 6,371.0088 km). */
export const EARTH_RADIUS_MILES = 3958.7613;

const RADIANS = Math.PI / 180;

/**
 * Great-circle distance in statute miles (haversine). Exact enough on a sphere for any pair of
 * points; the graph's edge invariants and the A* heuristic are stated against it.
 *
 * @example
 * haversineMiles({ latitude: 41.8781, longitude: -87.6298 }, { latitude: 39.7392, longitude: -104.9903 }); // ≈ 920
 */
export function haversineMiles(a: GeoPoint, b: GeoPoint): number {
  const dLat = (b.latitude - a.latitude) * RADIANS;
  const dLon = (b.longitude - a.longitude) * RADIANS;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * RADIANS) * Math.cos(b.latitude * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * How far `point` lies from the great circle through `from` and `to`, in statute miles (the
 * cross-track distance; its sign says the side, dropped here).
 */
export function crossTrackMiles(point: GeoPoint, from: GeoPoint, to: GeoPoint): number {
  const angularFromStart = haversineMiles(from, point) / EARTH_RADIUS_MILES;
  if (angularFromStart === 0) return 0;
  const delta = initialBearing(from, point) - initialBearing(from, to);
  return Math.abs(Math.asin(Math.sin(angularFromStart) * Math.sin(delta))) * EARTH_RADIUS_MILES;
}

/**
 * The initial great-circle bearing from `a` towards `b`, in degrees clockwise from true north
 * (0 ≤ bearing < 360), the convention of a breadcrumb's `heading_degrees`.
 *
 * @example
 * bearingDegrees({ latitude: 32.78, longitude: -96.8 }, { latitude: 33.5, longitude: -96.8 }); // 0 (north)
 */
export function bearingDegrees(a: GeoPoint, b: GeoPoint): number {
  const degrees = initialBearing(a, b) / RADIANS;
  return degrees < 0 ? degrees + 360 : degrees;
}

/** The angle between two bearings in degrees, 0…180, whichever way round is shorter. */
export function bearingDifferenceDegrees(a: number, b: number): number {
  const difference = Math.abs((((a - b) % 360) + 360) % 360);
  return difference > 180 ? 360 - difference : difference;
}

/** The initial great-circle bearing from `a` towards `b`, in radians. */
function initialBearing(a: GeoPoint, b: GeoPoint): number {
  const lat1 = a.latitude * RADIANS;
  const lat2 = b.latitude * RADIANS;
  const dLon = (b.longitude - a.longitude) * RADIANS;
  return Math.atan2(
    Math.sin(dLon) * Math.cos(lat2),
    Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(dLon),
  );
}

/**
 * The point a `fraction` (0…1) of the way from `a` to `b` along the great circle. Densified
 * geometry uses it so inserted points lie on the same line the distances are measured along.
 */
export function interpolateGreatCircle(a: GeoPoint, b: GeoPoint, fraction: number): GeoPoint {
  const lat1 = a.latitude * RADIANS;
  const lon1 = a.longitude * RADIANS;
  const lat2 = b.latitude * RADIANS;
  const lon2 = b.longitude * RADIANS;
  const angle = haversineMiles(a, b) / EARTH_RADIUS_MILES;
  if (angle < 1e-12) return { latitude: a.latitude, longitude: a.longitude };
  const wa = Math.sin((1 - fraction) * angle) / Math.sin(angle);
  const wb = Math.sin(fraction * angle) / Math.sin(angle);
  const x = wa * Math.cos(lat1) * Math.cos(lon1) + wb * Math.cos(lat2) * Math.cos(lon2);
  const y = wa * Math.cos(lat1) * Math.sin(lon1) + wb * Math.cos(lat2) * Math.sin(lon2);
  const z = wa * Math.sin(lat1) + wb * Math.sin(lat2);
  return {
    latitude: Math.atan2(z, Math.sqrt(x * x + y * y)) / RADIANS,
    longitude: Math.atan2(y, x) / RADIANS,
  };
}

/**
 * A cheap-ruler in miles for work near `latitude`: about 100× faster than haversine and within
 * 0.1% for distances up to a few hundred miles, which is the scale of corridor and projection work.
 */
export function milesRulerAt(latitude: number): CheapRuler {
  return new CheapRuler(latitude, 'miles');
}

/** `[longitude, latitude]`, the coordinate order cheap-ruler and GeoJSON use. */
export function toLonLat(point: GeoPoint): [number, number] {
  return [point.longitude, point.latitude];
}

/** A routing request's point must be a real coordinate; `endpoint` names it in the error (origin…). */
export function assertCoordinates(point: GeoPoint, endpoint: string): void {
  const { latitude, longitude } = point;
  if (!(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180)) {
    throw new RangeError(`${endpoint} is not a coordinate: (${latitude}, ${longitude})`);
  }
}
