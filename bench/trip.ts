/**
 * What the guidance, ingest and write-unit benchmarks share: the trucks they simulate (150 gal,
 * 6.5 mpg), the places they drive between, and a position a given number of road miles along a
 * route, so simulated breadcrumbs stay on the route guidance follows.
 */
import type { FuelProgram } from '#shared/fuel-programs/domain/program.ts';
import { pointAtMiles } from '#shared/geo/route-line.ts';
import type { RouteLine } from '#shared/geo/routing-engine.ts';
import type { GeoPoint } from '#shared/kernel/distance.ts';

/** The truck every guidance figure describes (the tank and mileage). */
export const TRUCK = { tankSizeGallons: 150, estimatedMpg: 6.5 } as const;

export const DALLAS: GeoPoint = { latitude: 32.7767, longitude: -96.797 };
export const DENVER = { latitude: 39.7392, longitude: -104.9903, name: 'Denver, CO' } as const;
/** 1,498 road miles from Dallas on the embedded network (I-30, I-40, I-81, I-70, I-95). */
export const PHILADELPHIA = { latitude: 39.9526, longitude: -75.1652, name: 'Philadelphia, PA' } as const;

/** Fleet fuel-card discounts, cents per gallon (the demo seed's). */
export const DISCOUNTS = { "Love's": 12, 'Pilot Flying J': 15 };

/** The fleet's fuel card program: those discounts, no rule (every station a candidate). */
export const FUEL_PROGRAM: FuelProgram = {
  rule: 'none',
  chains: Object.entries(DISCOUNTS).map(([chain, discountCents]) => ({ chain, discountCents })),
  offProgramPenaltyCents: 0,
  updatedAt: null,
};

/** Percent of the tank one road mile burns at the truck's mileage. */
export const PERCENT_PER_MILE = 100 / (TRUCK.estimatedMpg * TRUCK.tankSizeGallons);

/** The point `miles` road miles from the start of `line` (clamped to its ends), rounded to 1e-5°. */
export function pointAlong(line: RouteLine, miles: number): GeoPoint {
  return round(pointAtMiles(line, miles));
}

const round = (point: GeoPoint): GeoPoint => ({
  latitude: Math.round(point.latitude * 1e5) / 1e5,
  longitude: Math.round(point.longitude * 1e5) / 1e5,
});
