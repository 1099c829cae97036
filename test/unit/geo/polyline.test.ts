import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import {
  decodeRoutePolyline,
  densify,
  encodeRoutePolyline,
  roundToPolylinePrecision,
} from '#shared/geo/polyline.ts';
import { haversineMiles } from '#shared/kernel/distance.ts';
import { seededRandom } from '#test/support/seeded-random.ts';

describe('encodeRoutePolyline / decodeRoutePolyline', () => {
  it("matches Google's documented example", () => {
    // Prepare
    const points = [
      { latitude: 38.5, longitude: -120.2 },
      { latitude: 40.7, longitude: -120.95 },
      { latitude: 43.252, longitude: -126.453 },
    ];

    // Act / Assess
    expect(encodeRoutePolyline(points)).toBe('_p~iF~ps|U_ulLnnqC_mqNvxq`@');
    expect(decodeRoutePolyline('_p~iF~ps|U_ulLnnqC_mqNvxq`@')).toEqual(points);
  });

  it('round-trips random US points within half a unit of precision 5', () => {
    // Prepare
    const random = seededRandom(42);
    const points = Array.from({ length: 500 }, () => ({
      latitude: 25 + random() * 24,
      longitude: -125 + random() * 58,
    }));

    // Act
    const decoded = decodeRoutePolyline(encodeRoutePolyline(points));

    // Assess
    expect(decoded).toHaveLength(points.length);
    decoded.forEach((point, i) => {
      expect(Math.abs(point.latitude - (points[i]?.latitude ?? 0))).toBeLessThanOrEqual(0.5e-5 + 1e-12);
      expect(Math.abs(point.longitude - (points[i]?.longitude ?? 0))).toBeLessThanOrEqual(0.5e-5 + 1e-12);
    });
    expect(decodeRoutePolyline(encodeRoutePolyline(decoded))).toEqual(decoded);
  });

  it('decodes the empty polyline to no points and refuses one outside latitude ±90', () => {
    expect(decodeRoutePolyline('')).toEqual([]);
    expect(() => decodeRoutePolyline(polyline.encode([[95, 10]], 5))).toThrow(RangeError);
  });
});

describe('roundToPolylinePrecision', () => {
  it('rounds to 1e-5 degrees', () => {
    expect(roundToPolylinePrecision({ latitude: 41.123456, longitude: -87.987654 })).toEqual({
      latitude: 41.12346,
      longitude: -87.98765,
    });
  });
});

describe('densify', () => {
  it('leaves no gap over 5 miles, keeps the original points, and adds nothing to short segments', () => {
    // Prepare
    const random = seededRandom(9);
    for (let trial = 0; trial < 50; trial++) {
      const line = Array.from({ length: 4 }, () => ({
        latitude: 28 + random() * 20,
        longitude: -120 + random() * 45,
      }));

      // Act
      const dense = densify(line).map(roundToPolylinePrecision);

      // Assess
      dense.slice(1).forEach((point, i) => {
        expect(haversineMiles(dense[i] ?? point, point)).toBeLessThanOrEqual(5);
      });
      const kept = new Set(dense.map((point) => `${point.latitude},${point.longitude}`));
      for (const original of line.map(roundToPolylinePrecision)) {
        expect(kept.has(`${original.latitude},${original.longitude}`)).toBe(true);
      }
    }
    const short = [
      { latitude: 40, longitude: -100 },
      { latitude: 40.01, longitude: -100 },
    ];
    expect(densify(short)).toEqual(short);
  });

  it('honours a custom spacing and refuses a non-positive one', () => {
    // Prepare: one degree of latitude, ~69 miles.
    const line = [
      { latitude: 40, longitude: -100 },
      { latitude: 41, longitude: -100 },
    ];

    // Act / Assess
    expect(densify(line, 10)).toHaveLength(8);
    expect(densify([])).toEqual([]);
    expect(() => densify(line, 0)).toThrow(RangeError);
  });
});
