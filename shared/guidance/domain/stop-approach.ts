import { type GeoPoint, haversineMiles } from '#shared/kernel/distance.ts';
import { GUIDANCE_POLICY } from './policy.ts';
import type { GuidanceStop } from './session.ts';

/** Where the vehicle and a recommended stop's station are, relative to the route and each other. */
export interface ApproachGeometry {
  /** The vehicle now, and at the previous worker cycle (null when there was none). */
  position: GeoPoint;
  previousPosition: GeoPoint | null;
  /** Road miles from the route's start to the vehicle's foot on the route. */
  progressMiles: number;
  /** The same for the previous cycle's position (null when unknown). */
  previousProgressMiles?: number | null;
  /** Great-circle miles from the vehicle to its foot on the route. */
  vehicleOffRouteMiles: number;
  /** Road miles from the route's start to the station's foot on the route; null when not in the corridor. */
  stationMilesAlongRoute: number | null;
  /** Great-circle miles from the station to its foot on the route; null when not known (no side check). */
  stationOffRouteMiles?: number | null;
  /** Great-circle miles from the vehicle to the nearest other corridor station; null when none is known. */
  nearestOtherStationMiles?: number | null;
}

export type Approach = 'at_station' | 'heading_there' | null;

/**
 * Whether the vehicle is heading to a recommended stop, judged from geometry alone (no memory but
 * the previous breadcrumb's position: the worker replans at every breadcrumb, in recorded order):
 * - **at the station**: within `approachAtStationRadiusMiles` of the station's own position and
 *   no nearer to another corridor station (pulling in, at the pumps, crossing the lot, pulling
 *   out; a neighbouring truck stop at the same interchange is not this one);
 * - **heading there, off the route**: farther than `approachOnRouteMaxMiles` from the route line
 *   (left the interstate), no farther than the stop's one-way detour plus
 *   `approachOffRouteMarginMiles` on the station's side of the route (at most
 *   `approachOppositeSideMaxMiles` on the other side: the ramps of the interchange, for a station
 *   reached by crossing over), and the station's point on the route between
 *   `approachLeadMiles` ahead of the vehicle's point and `approachPassedMaxMiles` behind it. No
 *   step-by-step closing test: loop ramps, surface roads that bend away, GPS jumps and batched
 *   cycles all keep the stop, as long as the truck stays in that box;
 * - **heading there, still on the route** (on the exit ramp's first yards, which the route line
 *   cannot tell from the interstate), judged on the trajectory rather than one point: the segment
 *   from the previous breadcrumb crosses the station's point (it projected at or before it, this
 *   one past it by at most `approachCrossingMaxMiles`, one breadcrumb's travel at the slowest
 *   cadence), whatever the distance past; or, past the point by at most `approachPassedMaxMiles`,
 *   the straight-line distance to the station shrank by at least `approachMinClosingMiles` since
 *   the previous breadcrumb (real movement towards it).
 *
 * So the breadcrumb that crosses the exit never decides "passed" on its own: what comes next
 * does. A truck that stays on the interstate moves on away from the station and loses the stop at
 * the next breadcrumb past the point (standing in a jam included): at most one breadcrumb late.
 */
export function approachTo(
  stop: Pick<GuidanceStop, 'latitude' | 'longitude' | 'detourMiles'>,
  geometry: ApproachGeometry,
): Approach {
  const miles = haversineMiles(geometry.position, stop);
  const other = geometry.nearestOtherStationMiles ?? null;
  if (miles <= GUIDANCE_POLICY.approachAtStationRadiusMiles && (other === null || miles <= other))
    return 'at_station';
  const { stationMilesAlongRoute, previousPosition } = geometry;
  if (stationMilesAlongRoute === null) return null;
  const ahead = stationMilesAlongRoute - geometry.progressMiles;
  if (ahead > GUIDANCE_POLICY.approachLeadMiles) return null;
  const onRoute = geometry.vehicleOffRouteMiles <= GUIDANCE_POLICY.approachOnRouteMaxMiles;
  const previous = geometry.previousProgressMiles ?? null;
  if (
    onRoute &&
    ahead < 0 &&
    ahead >= -GUIDANCE_POLICY.approachCrossingMaxMiles &&
    previous !== null &&
    previous <= stationMilesAlongRoute
  )
    return 'heading_there';
  if (ahead < -GUIDANCE_POLICY.approachPassedMaxMiles) return null;
  if (!onRoute) {
    const allowedOffRoute = oppositeSide(miles, ahead, geometry)
      ? GUIDANCE_POLICY.approachOppositeSideMaxMiles
      : stop.detourMiles / 2 + GUIDANCE_POLICY.approachOffRouteMarginMiles;
    return geometry.vehicleOffRouteMiles <= allowedOffRoute ? 'heading_there' : null;
  }
  if (previousPosition === null) return null;
  const before = haversineMiles(previousPosition, stop);
  return miles <= before - GUIDANCE_POLICY.approachMinClosingMiles ? 'heading_there' : null;
}

/**
 * Whether the vehicle is on the other side of the route from the station, from distances alone,
 * taking the route as straight between their two points (at most a mile and a half apart): with
 * the vehicle `v` and the station `s` off the route and `a` road miles apart along it, their
 * straight-line distance is about √(a² + (v − s)²) on the same side and √(a² + (v + s)²) across.
 */
function oppositeSide(miles: number, ahead: number, geometry: ApproachGeometry): boolean {
  const s = geometry.stationOffRouteMiles ?? null;
  if (s === null) return false;
  const v = geometry.vehicleOffRouteMiles;
  const lateral = Math.sqrt(Math.max(0, miles * miles - ahead * ahead));
  return Math.abs(lateral - (v + s)) < Math.abs(lateral - Math.abs(v - s));
}
