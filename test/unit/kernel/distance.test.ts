import { describe, expect, it } from 'vitest';
import {
  crossTrackMiles,
  haversineMiles,
  interpolateGreatCircle,
  milesRulerAt,
  toLonLat,
} from '#shared/kernel/distance.ts';

const CHICAGO = { latitude: 41.8781, longitude: -87.6298 };
const DENVER = { latitude: 39.7392, longitude: -104.9903 };

describe('haversineMiles', () => {
  it('measures a degree of latitude as ~69.1 miles and is symmetric', () => {
    // Act / Assess
    expect(haversineMiles({ latitude: 40, longitude: -100 }, { latitude: 41, longitude: -100 })).toBeCloseTo(
      69.09,
      1,
    );
    expect(haversineMiles(CHICAGO, DENVER)).toBeCloseTo(haversineMiles(DENVER, CHICAGO), 9);
  });

  it('gives the published great-circle distance Chicago–Denver (~920 miles)', () => {
    expect(haversineMiles(CHICAGO, DENVER)).toBeGreaterThan(910);
    expect(haversineMiles(CHICAGO, DENVER)).toBeLessThan(925);
  });

  it('is zero for the same point', () => {
    expect(haversineMiles(CHICAGO, CHICAGO)).toBe(0);
  });
});

describe('interpolateGreatCircle', () => {
  it('returns the ends at 0 and 1 and an equidistant midpoint at 0.5', () => {
    // Act
    const start = interpolateGreatCircle(CHICAGO, DENVER, 0);
    const end = interpolateGreatCircle(CHICAGO, DENVER, 1);
    const middle = interpolateGreatCircle(CHICAGO, DENVER, 0.5);

    // Assess
    expect(haversineMiles(start, CHICAGO)).toBeLessThan(1e-6);
    expect(haversineMiles(end, DENVER)).toBeLessThan(1e-6);
    expect(haversineMiles(CHICAGO, middle)).toBeCloseTo(haversineMiles(middle, DENVER), 6);
  });
});

describe('milesRulerAt', () => {
  it('agrees with haversine within 0.1% over 100 miles', () => {
    // Prepare
    const a = { latitude: 35, longitude: -97 };
    const b = { latitude: 35.9, longitude: -96.2 };

    // Act
    const ruler = milesRulerAt(35.45);

    // Assess
    expect(Math.abs(ruler.distance(toLonLat(a), toLonLat(b)) / haversineMiles(a, b) - 1)).toBeLessThan(0.001);
  });
});

describe('crossTrackMiles', () => {
  it('is zero on the great circle and the perpendicular distance off it, either side', () => {
    const west = { latitude: 0, longitude: -1 };
    const east = { latitude: 0, longitude: 1 };
    expect(crossTrackMiles(interpolateGreatCircle(CHICAGO, DENVER, 0.37), CHICAGO, DENVER)).toBeLessThan(
      1e-6,
    );
    // A tenth of a degree north or south of the equator: ~6.9 miles.
    expect(crossTrackMiles({ latitude: 0.1, longitude: 0 }, west, east)).toBeCloseTo(6.91, 1);
    expect(crossTrackMiles({ latitude: -0.1, longitude: 0 }, west, east)).toBeCloseTo(6.91, 1);
    expect(crossTrackMiles(CHICAGO, CHICAGO, DENVER)).toBe(0);
  });
});
