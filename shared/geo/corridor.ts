import type { Station } from '#shared/stations/domain/station.ts';
import { densify, MAX_POINT_SPACING_MILES } from './polyline.ts';
import { createRouteProjector } from './route-projection.ts';
import type { RouteLine } from './routing-engine.ts';
import type { StationIndex } from './station-index.ts';

export interface CorridorStation {
  station: Station;
  milesAlongRoute: number;
  /** One way, from the road to the station. */
  offRouteMiles: number;
  /** Extra miles driven to stop there: off the route and back on. */
  detourMiles: number;
}

/**
 * Stations within `widthMiles` of the route, in route order. Candidates come from the spatial
 * index around points at most 5 miles apart (a client's polyline is densified first), searched
 * with half the spacing added to the radius so no station between two points is missed; each
 * candidate is then projected onto the line for its exact offset and position.
 */
export function corridorStations(
  index: StationIndex,
  line: RouteLine,
  widthMiles: number,
): CorridorStation[] {
  const searchPoints = densify(line.points, MAX_POINT_SPACING_MILES);
  const candidates = index.aroundPoints(searchPoints, widthMiles + MAX_POINT_SPACING_MILES / 2);
  const project = createRouteProjector(line);
  const inside: CorridorStation[] = [];
  for (const station of candidates) {
    const { milesAlongRoute, offRouteMiles } = project(station);
    if (offRouteMiles <= widthMiles) {
      inside.push({ station, milesAlongRoute, offRouteMiles, detourMiles: 2 * offRouteMiles });
    }
  }
  return inside.sort(
    (a, b) => a.milesAlongRoute - b.milesAlongRoute || a.station.id.localeCompare(b.station.id),
  );
}

/**
 * At most `max` stations spread along the route: the route is cut into `max` equal stretches and
 * the cheapest station of each stretch is kept, then remaining slots go to the cheapest others.
 * A plain "first N" would cover only the start of a long route; "cheapest N" could leave a
 * 500-mile stretch without a single option.
 */
export function spreadAlongRoute<T extends { milesAlongRoute: number }>(
  stations: readonly T[],
  max: number,
  routeMiles: number,
  cost: (station: T) => number,
): T[] {
  if (stations.length <= max) return [...stations];
  const stretch = Math.max(routeMiles, 1) / max;
  const best = new Map<number, T>();
  for (const station of stations) {
    const bin = Math.min(max - 1, Math.floor(station.milesAlongRoute / stretch));
    const current = best.get(bin);
    if (!current || cost(station) < cost(current)) best.set(bin, station);
  }
  const chosen = new Set(best.values());
  const rest = stations.filter((s) => !chosen.has(s)).sort((a, b) => cost(a) - cost(b));
  for (const station of rest) {
    if (chosen.size >= max) break;
    chosen.add(station);
  }
  return stations.filter((s) => chosen.has(s));
}
