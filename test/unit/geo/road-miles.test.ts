import { describe, expect, it } from 'vitest';
import {
  computeEmbeddedRoute,
  LOCAL_CIRCUITY_FACTOR,
  TURNAROUND_PLACE,
} from '#shared/geo/embedded-router.ts';
import { loadHighwayGraph } from '#shared/geo/highway-graph.ts';
import { decodeRoutePolyline, densify, roundToPolylinePrecision } from '#shared/geo/polyline.ts';
import { roadMilesAlong } from '#shared/geo/road-miles.ts';
import { pointAtMiles, routeLineFromPoints } from '#shared/geo/route-line.ts';
import { type GeoPoint, haversineMiles, interpolateGreatCircle } from '#shared/kernel/distance.ts';

const at = (latitude: number, longitude: number): GeoPoint => ({ latitude, longitude });

/** Routes of every shape: interstate only, several interstates, local legs at one or both ends, local only. */
const ROUTES: [string, GeoPoint, GeoPoint][] = [
  ['Dallas → Denver', at(32.7767, -96.797), at(39.7392, -104.9903)],
  ['Chicago → Denver', at(41.8781, -87.6298), at(39.7392, -104.9903)],
  ['Los Angeles → New York', at(34.0522, -118.2437), at(40.7128, -74.006)],
  ['Seattle → Portland', at(47.6062, -122.3321), at(45.5152, -122.6784)],
  ['a ranch in Wyoming → Bismarck (local legs at both ends)', at(44.0, -110.0), at(46.8, -100.78)],
  ['across Amarillo (local roads only)', at(35.222, -101.8313), at(35.3, -101.5)],
];

describe('roadMilesAlong: a route’s own polyline reads the route’s road miles', () => {
  it.each(ROUTES)('%s: the same total and the same miles at every point', (_name, origin, destination) => {
    // Prepare
    const route = computeEmbeddedRoute({ origin, destination });

    // Act
    const line = roadMilesAlong(decodeRoutePolyline(route.polyline));

    // Assess: to the hundredth at every point, so stations project to the same mile.
    expect(line.points).toEqual(route.points);
    line.cumulativeMiles.forEach((miles, i) => {
      expect(Math.abs(miles - (route.cumulativeMiles[i] as number))).toBeLessThanOrEqual(0.01);
    });
    expect(Math.abs((line.cumulativeMiles.at(-1) as number) - route.distanceMiles)).toBeLessThanOrEqual(0.05);
  });

  it('reads a route that turns at the next exit part-way along a drawn stretch, out and back, at its miles', () => {
    // Prepare: eastbound on I-40 35 miles west of Oklahoma City, bound west: the exit 3 miles on
    // and the truck's foot lie between the same two drawn points.
    const okc = at(35.4676, -97.5164);
    const albuquerque = at(35.0844, -106.6504);
    const west = computeEmbeddedRoute({ origin: okc, destination: albuquerque });
    const truck = pointAtMiles(west, 35);
    const route = computeEmbeddedRoute({
      origin: truck,
      destination: albuquerque,
      originHeadingDegrees: 90,
    });

    // Act
    const line = roadMilesAlong(decodeRoutePolyline(route.polyline));

    // Assess
    expect(route.legs[0]).toMatchObject({ to: TURNAROUND_PLACE, miles: 3 });
    line.cumulativeMiles.forEach((miles, i) => {
      expect(Math.abs(miles - (route.cumulativeMiles[i] as number))).toBeLessThanOrEqual(0.01);
    });
  });

  it('reads a route driven the other way the same length', () => {
    const route = computeEmbeddedRoute({ origin: at(32.7767, -96.797), destination: at(39.7392, -104.9903) });
    const back = roadMilesAlong(decodeRoutePolyline(route.polyline).reverse());
    expect(back.cumulativeMiles.at(-1)).toBeCloseTo(route.distanceMiles, 1);
  });

  it('reads ~6 % more than the drawn (great-circle) length on estimated interstate miles', () => {
    const route = computeEmbeddedRoute({ origin: at(32.7767, -96.797), destination: at(39.7392, -104.9903) });
    const drawn = routeLineFromPoints(route.points).cumulativeMiles.at(-1) as number;
    expect(route.distanceMiles).toBe(894);
    expect(drawn).toBeCloseTo(839.7, 0);
    expect(roadMilesAlong(route.points).cumulativeMiles.at(-1)).toBeCloseTo(894, 1);
  });
});

describe('the network as the embedded engine draws it', () => {
  it('draws every segment the other way as the same points reversed (one drawing serves both directions)', () => {
    for (const edge of loadHighwayGraph().edges) {
      const forward = densify(edge.geometry).map(roundToPolylinePrecision);
      const backward = densify([...edge.geometry].reverse()).map(roundToPolylinePrecision);
      expect(backward.reverse(), `${edge.from} → ${edge.to}`).toEqual(forward);
    }
  });
});

describe('roadMilesAlong: any other line', () => {
  it('measures a line off the network as drawn (great-circle miles)', () => {
    // A wiggly line over west Texas ranch roads: no two consecutive points on a drawn segment.
    const wiggly = Array.from({ length: 30 }, (_, i) => at(33 + i * 0.01, -101 + (i % 2) * 0.01));
    expect(roadMilesAlong(wiggly).cumulativeMiles).toEqual(routeLineFromPoints(wiggly).cumulativeMiles);
  });

  it('reads a straight line of up to 200 miles as a local road (1.3 road miles a mile), a longer one as drawn', () => {
    const short = [at(35.0, -101.0), at(35.5, -100.5)];
    const straight = haversineMiles(short[0] as GeoPoint, short[1] as GeoPoint);
    expect(roadMilesAlong(short).cumulativeMiles.at(-1)).toBeCloseTo(straight * LOCAL_CIRCUITY_FACTOR, 1);
    // Densified, it is still one straight stretch.
    const dense = [0, 0.25, 0.5, 0.75, 1].map((f) =>
      roundToPolylinePrecision(interpolateGreatCircle(short[0] as GeoPoint, short[1] as GeoPoint, f)),
    );
    expect(roadMilesAlong(dense).cumulativeMiles.at(-1)).toBeCloseTo(straight * LOCAL_CIRCUITY_FACTOR, 1);

    const long = [at(35.0, -101.0), at(40.0, -95.0)];
    expect(roadMilesAlong(long).cumulativeMiles.at(-1)).toBeCloseTo(
      haversineMiles(long[0] as GeoPoint, long[1] as GeoPoint),
      1,
    );
  });

  it('measures a simplified copy of a route (every other point dropped) as drawn where it left the route’s points', () => {
    const route = computeEmbeddedRoute({
      origin: at(41.8781, -87.6298),
      destination: at(39.7392, -104.9903),
    });
    const simplified = route.points.filter((_, i) => i % 2 === 0 || i === route.points.length - 1);
    const read = roadMilesAlong(simplified).cumulativeMiles.at(-1) as number;
    const drawn = routeLineFromPoints(simplified).cumulativeMiles.at(-1) as number;
    expect(read).toBeGreaterThanOrEqual(drawn);
    expect(read).toBeLessThan(route.distanceMiles);
  });

  it('keeps a single point and an empty line', () => {
    expect(roadMilesAlong([at(35, -100)]).cumulativeMiles).toEqual([0]);
    expect(roadMilesAlong([]).cumulativeMiles).toEqual([]);
  });
});
