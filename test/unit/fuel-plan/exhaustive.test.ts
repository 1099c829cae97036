import { describe, expect, it } from 'vitest';
import { solveFuelPlanExhaustively } from '#shared/fuel-plan/domain/exhaustive.ts';
import { prepareFuelProblem } from '#shared/fuel-plan/domain/problem.ts';
import { station, trip } from './fixtures.ts';

// The referee gets its own checks: a wrong referee would make the property tests meaningless.
describe('solveFuelPlanExhaustively', () => {
  it('finds the hand-computed optimum: everything at the cheapest station', () => {
    // Prepare: the cheapest-station trip shrunk a hundredfold in gallons (the model has no scale,
    // and the exhaustive solver is for small tanks): 2-gal tank at 500 mpg, 0.4 gal at mile 300,
    // 700 more miles need 1.4 gal plus 0.4 on arrival.
    const problem = prepareFuelProblem(
      trip({
        routeMiles: 1000,
        tankGallons: 2,
        mpg: 500,
        currentFuelGallons: 1,
        minArrivalGallons: 0.4,
        minPurchaseGallons: 0.2,
        stations: [station('A', 200, 3.8), station('B', 300, 3.4), station('C', 400, 3.9)],
      }),
    );

    // Act
    const solution = solveFuelPlanExhaustively(problem);

    // Assess
    expect(solution.feasible).toBe(true);
    if (!solution.feasible) return;
    expect(solution.objective).toBeCloseTo(4.76, 9);
    expect(solution.gallonsByStation.map((gallons) => Math.round(gallons * 10) / 10)).toEqual([0, 1.4, 0]);
  });

  it('reports that no plan exists when none does', () => {
    // Prepare: the only station is 1,000 miles out; 1 gal goes 400 miles above the 0.2-gal reserve.
    const problem = prepareFuelProblem(
      trip({
        routeMiles: 1200,
        tankGallons: 2,
        mpg: 500,
        currentFuelGallons: 1,
        minArrivalGallons: 0.4,
        stations: [station('A', 1000, 3)],
      }),
    );

    // Act / Assess
    expect(solveFuelPlanExhaustively(problem).feasible).toBe(false);
  });

  it('gives up loudly rather than hang on an instance too big for it', () => {
    // Prepare
    const stations = Array.from({ length: 8 }, (_, index) =>
      station(`S${index}`, 100 + index * 100, 3 + index / 100),
    );
    const problem = prepareFuelProblem(trip({ routeMiles: 1000, stations, minPurchaseGallons: 0 }));

    // Act / Assess
    expect(() => solveFuelPlanExhaustively(problem, 10_000)).toThrow(/passed 10000 partial plans/);
  });
});
