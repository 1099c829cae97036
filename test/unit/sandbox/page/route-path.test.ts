import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import { mapProjection, projectPoint } from '../../../../web/sandbox/projection.ts';
import { routePathData, routeSegments } from '../../../../web/sandbox/route-path.ts';

const projection = mapProjection();
const OKLAHOMA_CITY: [number, number] = [35.4676, -97.5164];
const NORMAN: [number, number] = [35.2226, -97.4395];
const DALLAS: [number, number] = [32.7767, -96.797];

describe('routePathData', () => {
  it('draws the decoded route through the projected points, in order', () => {
    // Arrange
    const encoded = polyline.encode([OKLAHOMA_CITY, NORMAN, DALLAS], 5);
    const [a, b, c] = [OKLAHOMA_CITY, NORMAN, DALLAS].map(([lat, lon]) => projectPoint(projection, lat, lon));

    // Act
    const d = routePathData(encoded, projection);

    // Assess: polyline rounds to 1e-5 degrees, far below a tenth of a pixel.
    expect(d).toBe(`M${a?.x},${a?.y}L${b?.x},${b?.y}L${c?.x},${c?.y}`);
  });

  it('is empty for a route of one point (nothing to draw)', () => {
    expect(routePathData(polyline.encode([DALLAS], 5), projection)).toBe('');
  });
});

describe('routeSegments', () => {
  it('breaks the line where a point has no place on the map instead of drawing a chord', () => {
    // Arrange: a point in the Pacific between two runs.
    const coordinates: [number, number][] = [OKLAHOMA_CITY, NORMAN, [10, -150], NORMAN, DALLAS];

    // Act
    const segments = routeSegments(coordinates, projection);

    // Assess
    expect(segments).toHaveLength(2);
    expect(segments.map((segment) => segment.length)).toEqual([2, 2]);
  });

  it('drops consecutive points that land on the same tenth of a pixel', () => {
    // Arrange: 1e-5 degrees apart, about a metre.
    const coordinates: [number, number][] = [NORMAN, [NORMAN[0] + 0.00001, NORMAN[1]], DALLAS];

    // Act / Assess
    expect(routeSegments(coordinates, projection)[0]).toHaveLength(2);
  });
});
