import { type GeoPoint, haversineMiles } from '../../geo/distance.ts';
import { GUIDANCE_POLICY } from './policy.ts';
import type { GuidanceStop } from './session.ts';

/** Where the vehicle and a recommended stop's station are, relative to the route and each other. */
export interface ApproachGeometry {
  /** The vehicle now, and at the previous cycle (null when there was none). */
  position: GeoPoint;
  previousPosition: GeoPoint | null;
  /** Road miles from the route's start to the vehicle's foot on the route. */
  progressMiles: number;
  /** Great-circle miles from the vehicle to its foot on the route. */
  vehicleOffRouteMiles: number;
  /** Road miles from the route's start to the station's foot on the route; null when not in the corridor. */
  stationMilesAlongRoute: number | null;
}

export type Approach = 'at_station' | 'heading_there' | null;

/**
 * Whether the vehicle is heading to a recommended stop, judged from geometry alone:
 * - **at the station**: within `approachAtStationRadiusMiles` of the station's own position
 *   (pulling in, at the pumps, crossing the lot, pulling out);
 * - **heading there**: the station's point on the route lies between `approachLeadMiles` ahead of
 *   the vehicle's point and `approachPassedMaxMiles` behind it (leaving the interstate around the
 *   station's exit), the vehicle is no farther off the route than the stop's one-way detour plus
 *   `approachOffRouteMarginMiles` (the exit ramp and the surface road towards the station), and
 *   its straight-line distance to the station has not grown since the previous position by more
 *   than `approachClosingToleranceMiles` (closing in, or waiting at a light).
 *
 * A truck that stays on the interstate past the exit fails the last test from its first
 * breadcrumb past the station's point (the station is nearest at that point) and the second
 * one within a mile and a half after it.
 */
export function approachTo(
  stop: Pick<GuidanceStop, 'latitude' | 'longitude' | 'detourMiles'>,
  geometry: ApproachGeometry,
): Approach {
  const miles = haversineMiles(geometry.position, stop);
  if (miles <= GUIDANCE_POLICY.approachAtStationRadiusMiles) return 'at_station';
  const { stationMilesAlongRoute, previousPosition } = geometry;
  if (stationMilesAlongRoute === null || previousPosition === null) return null;
  const ahead = stationMilesAlongRoute - geometry.progressMiles;
  if (ahead > GUIDANCE_POLICY.approachLeadMiles || ahead < -GUIDANCE_POLICY.approachPassedMaxMiles)
    return null;
  const allowedOffRoute = stop.detourMiles / 2 + GUIDANCE_POLICY.approachOffRouteMarginMiles;
  if (geometry.vehicleOffRouteMiles > allowedOffRoute) return null;
  const before = haversineMiles(previousPosition, stop);
  return miles <= before + GUIDANCE_POLICY.approachClosingToleranceMiles ? 'heading_there' : null;
}
