import { describe, expect, it } from 'vitest';
import { prepareFuelProblem } from '#shared/fuel-plan/domain/problem.ts';
import { simulateFuelPurchases } from '#shared/fuel-plan/domain/simulate.ts';
import { station, trip } from './fixtures.ts';

// 100 gal on board, 200-gal tank, 5 mpg, 20-gal reserve and minimum purchase, 40 gal on arrival.
const problem = prepareFuelProblem(
  trip({
    routeMiles: 1000,
    stations: [station('A', 300, 3.5, { detourMiles: 5, isStale: true }), station('B', 500, 3)],
  }),
);

describe('simulateFuelPurchases', () => {
  it('drives a good plan: fuel at each stop, costs at net and objective prices, arrival', () => {
    // Act: A is reached with 40 − 1 = 39 gal; 142 gal make 181, 180 back on the route.
    const simulation = simulateFuelPurchases(problem, [142, 0]);

    // Assess
    expect(simulation.violations).toEqual([]);
    expect(simulation.feasible).toBe(true);
    expect(simulation.stops).toEqual([
      { stationIndex: 0, gallons: 142, fuelOnArrivalGallons: 39, fuelAfterPurchaseGallons: 181 },
    ]);
    expect(simulation.cost).toBeCloseTo(497, 9);
    expect(simulation.objective).toBeCloseTo(497 + 14.2, 9);
    expect(simulation.arrivalFuelGallons).toBeCloseTo(40, 9);
  });

  it.each([
    ['an arrival under the minimum', [140, 0], /^arrives with 38 gal, below the required 40 gal$/],
    ['a tank overflow', [170, 0], /^fills A to 209 gal, above the tank$/],
    ['a purchase under the minimum', [142, 10], /^buys 10 gal at B, below the minimum purchase$/],
    ['a station reached under the reserve', [0, 150], /^reaches B with 0 gal, below the reserve$/],
  ])('flags %s', (_case, gallons, violation) => {
    // Act
    const simulation = simulateFuelPurchases(problem, gallons);

    // Assess
    expect(simulation.feasible).toBe(false);
    expect(simulation.violations).toContainEqual(expect.stringMatching(violation));
  });
});
