import { computeEmbeddedRoute } from '#shared/geo/embedded-router.ts';
import type { RouteLine } from '#shared/geo/routing-engine.ts';
import { type GeoPoint, haversineMiles } from '#shared/kernel/distance.ts';

/** A simulated truck's current leg on the embedded network: its line, length and polyline. */
export interface SimRoute {
  line: RouteLine;
  miles: number;
  polyline: string;
}

/** Legs start and end at cities and stations, so a small cache serves every twin's trucks. */
const MAX_CACHED_ROUTES = 500;
const cache = new Map<string, SimRoute>();

const keyOf = (point: GeoPoint) => `${point.latitude.toFixed(5)},${point.longitude.toFixed(5)}`;

/**
 * The embedded router's route between two points (pure and deterministic: the same graph gives the
 * same line), remembered per process so a tick re-derives a truck's leg from its two ends instead of
 * storing the line.
 */
export function simRoute(origin: GeoPoint, destination: GeoPoint): SimRoute {
  const key = `${keyOf(origin)}>${keyOf(destination)}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const result = computeEmbeddedRoute({ origin, destination }, { timeBudgetMs: 10_000 });
  const route: SimRoute = {
    line: { points: result.points, cumulativeMiles: result.cumulativeMiles },
    miles: result.distanceMiles,
    polyline: result.polyline,
  };
  if (cache.size >= MAX_CACHED_ROUTES) cache.delete(cache.keys().next().value as string);
  cache.set(key, route);
  return route;
}

const RADIANS = Math.PI / 180;

/** Initial great-circle bearing from `a` to `b`, 0–359 degrees clockwise from north. */
export function bearingDegrees(a: GeoPoint, b: GeoPoint): number {
  if (haversineMiles(a, b) < 1e-6) return 0;
  const lat1 = a.latitude * RADIANS;
  const lat2 = b.latitude * RADIANS;
  const dLon = (b.longitude - a.longitude) * RADIANS;
  const y = Math.sin(dLon) * Math.cos(lat2);
  const x = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(dLon);
  return Math.round((Math.atan2(y, x) / RADIANS + 360) % 360);
}
