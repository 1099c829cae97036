import { describe, expect, it } from 'vitest';
import { runFillAtQuarterBaseline } from '../../../shared/domain/fuel-plan/baseline.ts';
import { prepareFuelProblem } from '../../../shared/domain/fuel-plan/problem.ts';
import { station, trip } from './fixtures.ts';

// A 200-gal tank at 5 mpg: a quarter is 50 gal.

describe('runFillAtQuarterBaseline', () => {
  it('takes the first exit where the tank is below a quarter and fills to full, detour included', () => {
    // Prepare: 60 gal; A's exit at mile 50 sees exactly a quarter (not below), B's at 60 sees 48.
    const problem = prepareFuelProblem(
      trip({
        routeMiles: 500,
        currentFuelGallons: 60,
        stations: [
          station('A', 50, 3),
          station('B', 60, 3.5, { discountPerGallon: 0.1, detourMiles: 5 }),
          station('C', 100, 2),
        ],
      }),
    );

    // Act
    const run = runFillAtQuarterBaseline(problem);

    // Assess: 1 gal to reach B leaves 47; 153 gal at $3.40 net; back on the route with 199 gal,
    // 440 miles (88 gal) to go.
    expect(run.feasible).toBe(true);
    expect(run.stopCount).toBe(1);
    expect(run.gallons).toBeCloseTo(153, 9);
    expect(run.cost).toBeCloseTo(520.2, 9);
    expect(run.arrivalFuelGallons).toBeCloseTo(111, 9);
  });

  it('passes an exit whose station is farther off the route than the fuel left', () => {
    // Prepare: 10 gal at A's exit (mile 200) and A 60 miles (12 gal) away; B at mile 210 is on the route.
    const problem = prepareFuelProblem(
      trip({
        routeMiles: 400,
        currentFuelGallons: 50,
        stations: [station('A', 200, 3, { detourMiles: 60 }), station('B', 210, 4)],
      }),
    );

    // Act
    const run = runFillAtQuarterBaseline(problem);

    // Assess: B reached with 8 gal, fills 192 at $4.
    expect(run).toMatchObject({ feasible: true, stopCount: 1 });
    expect(run.cost).toBeCloseTo(768, 9);
  });

  it('is infeasible when the tank runs dry before a station or the destination', () => {
    // Prepare: 30 gal carry the truck 150 miles; the only station is at mile 200.
    const problem = prepareFuelProblem(
      trip({ routeMiles: 400, currentFuelGallons: 30, stations: [station('A', 200, 3)] }),
    );

    // Act
    const run = runFillAtQuarterBaseline(problem);

    // Assess
    expect(run).toEqual({ feasible: false, cost: 0, gallons: 0, stopCount: 0, arrivalFuelGallons: 0 });
  });
});
