import { describe, expect, it } from 'vitest';
import { pointAtMiles, routeLineFromPoints } from '#shared/geo/route-line.ts';
import { haversineMiles } from '#shared/kernel/distance.ts';

// Dallas → Oklahoma City → Wichita: two legs of very different length.
const line = routeLineFromPoints([
  { latitude: 32.7767, longitude: -96.797 },
  { latitude: 35.4676, longitude: -97.5164 },
  { latitude: 37.6872, longitude: -97.3301 },
]);
const total = line.cumulativeMiles.at(-1) as number;

describe('pointAtMiles', () => {
  it('is the first point at 0 and before it, the last point at the end and beyond it', () => {
    expect(pointAtMiles(line, 0)).toEqual(line.points[0]);
    expect(pointAtMiles(line, -5)).toEqual(line.points[0]);
    expect(pointAtMiles(line, total)).toEqual(line.points.at(-1));
    expect(pointAtMiles(line, total + 50)).toEqual(line.points.at(-1));
  });

  it('lies the asked miles along the line, between the two points around it', () => {
    for (const miles of [1, 37.5, total / 2, total - 2]) {
      const point = pointAtMiles(line, miles);
      const next = line.cumulativeMiles.findIndex((at) => at >= miles);
      const before = line.points[next - 1] as (typeof line.points)[number];
      const after = line.points[next] as (typeof line.points)[number];
      const fromBefore = miles - (line.cumulativeMiles[next - 1] as number);
      // The line's points are at most 5 miles apart and its miles are great-circle here.
      expect(haversineMiles(before, point)).toBeCloseTo(fromBefore, 1);
      expect(haversineMiles(before, point) + haversineMiles(point, after)).toBeCloseTo(
        haversineMiles(before, after),
        3,
      );
    }
  });
});
