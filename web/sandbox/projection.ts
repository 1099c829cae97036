import { type GeoProjection, geoAlbersUsa } from 'd3-geo';

/**
 * The map's coordinate system. The state outlines come pre-projected in us-atlas's
 * `states-albers-10m.json`, made with exactly this projection for a 975×610 viewport (us-atlas
 * README), so the browser never re-projects 80 KB of outlines and the trucks, routes and stops
 * projected here land on them. The SVG's viewBox is this viewport; CSS scales it to the window.
 */
export const MAP_WIDTH = 975;
export const MAP_HEIGHT = 610;

export interface MapPoint {
  x: number;
  y: number;
}

export function mapProjection(): GeoProjection {
  return geoAlbersUsa()
    .scale(1300)
    .translate([MAP_WIDTH / 2, MAP_HEIGHT / 2]);
}

/**
 * Where a latitude/longitude lands in the viewport, rounded to a tenth of a pixel (plenty on a
 * 975-wide map, and it keeps the SVG short); null outside the lower 48, Alaska and Hawaii, where
 * the composite projection has no place for it.
 */
export function projectPoint(
  projection: GeoProjection,
  latitude: number,
  longitude: number,
): MapPoint | null {
  const projected = projection([longitude, latitude]);
  if (!projected) return null;
  return { x: roundTenth(projected[0]), y: roundTenth(projected[1]) };
}

export function roundTenth(value: number): number {
  return Math.round(value * 10) / 10;
}
