import { describe, expect, it } from 'vitest';
import { computeEmbeddedRoute } from '#shared/geo/embedded-router.ts';
import { buildRouteLine, routeLineFromPoints } from '#shared/geo/route-line.ts';
import { createRouteProjector, projectOntoRoute } from '#shared/geo/route-projection.ts';
import { haversineMiles } from '#shared/kernel/distance.ts';
import { place } from './support.ts';

// A straight east–west route along the 40th parallel, about 53 miles, drawn as 53 road miles.
const WEST = { latitude: 40, longitude: -100 };
const EAST = { latitude: 40, longitude: -99 };
const straight = routeLineFromPoints([WEST, EAST]);

describe('projectOntoRoute', () => {
  it('places a point beside the middle of the route at half the miles, its distance off the route', () => {
    // Prepare
    const station = { latitude: 40.1, longitude: -99.5 };

    // Act
    const projection = projectOntoRoute(straight, station);

    // Assess
    const total = straight.cumulativeMiles.at(-1) ?? 0;
    expect(projection.milesAlongRoute).toBeCloseTo(total / 2, 0);
    expect(projection.offRouteMiles).toBeCloseTo(6.9, 1);
    expect(projection.nearestPoint.latitude).toBeCloseTo(40, 2);
  });

  it('clamps points before the start to mile 0 and past the end to the last mile', () => {
    // Act
    const before = projectOntoRoute(straight, { latitude: 40, longitude: -100.5 });
    const after = projectOntoRoute(straight, { latitude: 40, longitude: -98.5 });

    // Assess
    expect(before.milesAlongRoute).toBe(0);
    expect(after.milesAlongRoute).toBeCloseTo(straight.cumulativeMiles.at(-1) ?? 0, 6);
    expect(before.offRouteMiles).toBeCloseTo(haversineMiles(WEST, { latitude: 40, longitude: -100.5 }), 1);
  });

  it('reads road miles, not drawn miles, when the line carries them', () => {
    // Prepare: the same drawing standing for 80 road miles.
    const line = buildRouteLine([{ geometry: [WEST, EAST], miles: 80 }]);

    // Act
    const projection = projectOntoRoute(line, { latitude: 40.05, longitude: -99.5 });

    // Assess
    expect(projection.milesAlongRoute).toBeCloseTo(40, 0);
  });

  it('places a junction city on a cross-country route where the route passes it', () => {
    // Prepare
    const route = computeEmbeddedRoute({ origin: place('chicago-il'), destination: place('denver-co') });
    const project = createRouteProjector(route);
    const northPlatte = place('north-platte-ne');
    const index = route.points.findIndex(
      (point) => point.latitude === northPlatte.latitude && point.longitude === northPlatte.longitude,
    );

    // Act
    const projection = project(northPlatte);
    const nearby = project({ latitude: northPlatte.latitude + 0.05, longitude: northPlatte.longitude });

    // Assess
    expect(index).toBeGreaterThan(0);
    expect(projection.offRouteMiles).toBeLessThan(0.01);
    expect(projection.milesAlongRoute).toBeCloseTo(route.cumulativeMiles[index] ?? Number.NaN, 1);
    expect(nearby.offRouteMiles).toBeGreaterThan(2);
    expect(nearby.offRouteMiles).toBeLessThan(4);
    expect(Math.abs(nearby.milesAlongRoute - projection.milesAlongRoute)).toBeLessThan(3);
  });

  it('refuses a line with fewer than two points', () => {
    expect(() => createRouteProjector({ points: [WEST], cumulativeMiles: [0] })).toThrow(RangeError);
  });
});

describe('routeLineFromPoints', () => {
  it('measures great-circle miles along a decoded polyline', () => {
    // Act
    const line = routeLineFromPoints([WEST, EAST, { latitude: 41, longitude: -99 }]);

    // Assess
    expect(line.cumulativeMiles[0]).toBe(0);
    expect(line.cumulativeMiles[1]).toBeCloseTo(haversineMiles(WEST, EAST), 1);
    expect(line.cumulativeMiles[2]).toBeCloseTo(haversineMiles(WEST, EAST) + 69.1, 0);
  });
});
