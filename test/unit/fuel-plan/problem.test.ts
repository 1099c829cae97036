import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MIN_PURCHASE_GALLONS,
  DEFAULT_RESERVE_FRACTION,
  STALE_PRICE_PENALTY_USD,
} from '#shared/fuel-plan/domain/policy.ts';
import { prepareFuelProblem } from '#shared/fuel-plan/domain/problem.ts';
import { station, trip } from './fixtures.ts';

describe('prepareFuelProblem', () => {
  it('applies the fleet defaults: a 10% reserve and a 20-gal minimum purchase', () => {
    // Act
    const problem = prepareFuelProblem(trip({ routeMiles: 100, stations: [], minArrivalGallons: 10 }));

    // Assess
    expect(DEFAULT_RESERVE_FRACTION).toBe(0.1);
    expect(DEFAULT_MIN_PURCHASE_GALLONS).toBe(20);
    expect(problem.reserveGallons).toBe(20);
    expect(problem.minPurchaseGallons).toBe(20);
    // The reserve holds to the end of the route: a 10-gal arrival minimum still means 20 gal.
    expect(problem.arrivalRequiredGallons).toBe(20);
  });

  it('puts the stations in route order, keeps ties in input order, and prices them', () => {
    // Prepare
    const input = trip({
      routeMiles: 1000,
      stations: [
        station('late', 700, 3.9),
        station('tie-1', 300, 3.6, { discountPerGallon: 0.1, isStale: true }),
        station('tie-2', 300, 3.5),
      ],
    });

    // Act
    const problem = prepareFuelProblem(input);

    // Assess
    expect(problem.stations.map((s) => s.id)).toEqual(['tie-1', 'tie-2', 'late']);
    expect(problem.stations[0]?.netPrice).toBeCloseTo(3.5, 12);
    expect(problem.stations[0]?.objectivePrice).toBeCloseTo(3.5 + STALE_PRICE_PENALTY_USD, 12);
    expect(problem.stations[1]?.objectivePrice).toBe(3.5);
  });

  it.each([
    ['a zero tank', { tankGallons: 0 }, /tankGallons/],
    ['a zero mpg', { mpg: 0 }, /mpg/],
    ['more fuel than the tank holds', { currentFuelGallons: 201 }, /currentFuelGallons/],
    ['an arrival minimum above the tank', { minArrivalGallons: 250 }, /minArrivalGallons/],
    ['a negative reserve', { reserveGallons: -1 }, /reserveGallons/],
    [
      'a discount above the price',
      { stations: [station('A', 10, 3, { discountPerGallon: 3.5 })] },
      /A: discountPerGallon/,
    ],
    ['a negative detour', { stations: [station('A', 10, 3, { detourMiles: -1 })] }, /A: detourMiles/],
    ['a station at NaN miles', { stations: [station('A', Number.NaN, 3)] }, /A: milesAlongRoute/],
  ])('refuses %s with a RangeError', (_case, overrides, message) => {
    // Act / Assess
    expect(() => prepareFuelProblem(trip({ routeMiles: 100, stations: [], ...overrides }))).toThrow(
      expect.objectContaining({ name: 'RangeError', message: expect.stringMatching(message) }),
    );
  });
});
