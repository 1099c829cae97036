import { BASELINE_REFILL_FRACTION } from './policy.ts';
import type { FuelProblem } from './types.ts';

/** The baseline strategy in a sentence, as the route response states it. */
export const BASELINE_DESCRIPTION =
  `Fill the tank to full at the first station on the route once it is below ` +
  `${BASELINE_REFILL_FRACTION * 100}%, paying its net price, on the same stations as the plan.`;

export interface BaselineRun {
  feasible: boolean;
  /** USD at net prices: the baseline driver pays posted prices and knows nothing of staleness. */
  cost: number;
  gallons: number;
  stopCount: number;
  /** Fuel left at the destination; 0 when the tank ran dry. */
  arrivalFuelGallons: number;
}

/**
 * The naive strategy every plan is compared with, "fill to full at the nearest station on the route
 * whenever the tank falls below 25%", made precise: the driver watches the gauge at each station's
 * exit in route order, and at the first exit where the tank is below a quarter takes it and fills to
 * full (paying the net price, detour fuel included). The detour there and back is driven like any
 * other miles. An exit whose station is farther off the route than the fuel left is passed by.
 * It knows no reserve, minimum purchase or arrival target; it is infeasible when the tank runs dry.
 */
export function runFillAtQuarterBaseline(problem: FuelProblem): BaselineRun {
  const { stations, mpg, tankGallons } = problem;
  const trigger = BASELINE_REFILL_FRACTION * tankGallons;
  let fuel = problem.currentFuelGallons;
  let position = 0;
  let cost = 0;
  let gallons = 0;
  let stopCount = 0;
  const dry = (): BaselineRun => ({ feasible: false, cost, gallons, stopCount, arrivalFuelGallons: 0 });

  for (const station of stations) {
    fuel -= (station.milesAlongRoute - position) / mpg;
    position = station.milesAlongRoute;
    if (fuel < 0) return dry();
    if (fuel >= trigger) continue;
    const oneWay = station.detourMiles / mpg;
    if (fuel - oneWay < 0) continue;
    const bought = tankGallons - (fuel - oneWay);
    cost += station.netPrice * bought;
    gallons += bought;
    stopCount++;
    fuel = tankGallons - oneWay;
  }
  fuel -= (problem.routeMiles - position) / mpg;
  if (fuel < 0) return dry();
  return { feasible: true, cost, gallons, stopCount, arrivalFuelGallons: fuel };
}
