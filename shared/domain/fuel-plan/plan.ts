import { runFillAtQuarterBaseline } from './baseline.ts';
import { formatGallons, formatUsd, roundGallons, roundUsd } from './format.ts';
import { optimizeFuelPurchases } from './optimizer.ts';
import { prepareFuelProblem } from './problem.ts';
import { explainStop } from './reasons.ts';
import { savingsAgainstBaseline } from './savings.ts';
import { simulateFuelPurchases } from './simulate.ts';
import type { BaselineOutcome, FuelPlan, FuelPlanInput, FuelStop } from './types.ts';

/**
 * The fuel plan for a route: where to stop, how much to buy, why, what it costs, and what the naive
 * fill-at-a-quarter strategy would have cost on the same stations. Pure: no I/O, same input, same plan.
 *
 * Computations are exact; rounding (gallons to 0.1, money to the cent) happens only here, in the
 * output. A stop's cost is its exact cost rounded; totalCost is the sum of the stops' rounded costs,
 * so the table adds up.
 *
 * @example
 * const plan = planFuel({ routeMiles: 1_200, destinationName: 'Denver', stations, tankGallons: 300,
 *   mpg: 6.5, currentFuelGallons: 120, minArrivalGallons: 60 });
 * if (plan.status === 'infeasible') console.log(plan.reason);
 */
export function planFuel(input: FuelPlanInput): FuelPlan {
  const problem = prepareFuelProblem(input);
  const baselineRun = runFillAtQuarterBaseline(problem);
  const baseline: BaselineOutcome = {
    strategy: 'fill_to_full_below_quarter',
    cost: roundUsd(baselineRun.cost),
    gallons: roundGallons(baselineRun.gallons),
    stopCount: baselineRun.stopCount,
    arrivalFuelGallons: roundGallons(baselineRun.arrivalFuelGallons),
    feasible: baselineRun.feasible,
  };

  const optimized = optimizeFuelPurchases(problem);
  if (!optimized.feasible) {
    return {
      status: 'infeasible',
      reason: optimized.reason,
      stops: [],
      totalCost: 0,
      totalGallons: 0,
      arrivalFuelGallons: null,
      baseline,
      savingsVsBaseline: null,
    };
  }

  // A micro-gallon of slack: this check is for bugs, not for the optimizer's float rounding.
  const simulation = simulateFuelPurchases(problem, optimized.gallonsByStation, 1e-6);
  if (!simulation.feasible) {
    // The optimizer and the referee disagree: a bug, never a plan to hand a driver.
    throw new Error(`fuel plan breaks its own rules: ${simulation.violations.join('; ')}`);
  }
  const stops: FuelStop[] = simulation.stops.map((stop, position) => {
    const station = problem.stations[stop.stationIndex];
    if (!station) throw new Error(`no station at index ${stop.stationIndex}`);
    return {
      stationId: station.id,
      name: station.name,
      milesAlongRoute: station.milesAlongRoute,
      detourMiles: station.detourMiles,
      gallons: roundGallons(stop.gallons),
      netPrice: roundUsd(station.netPrice),
      price: station.pricePerGallon,
      discount: station.discountPerGallon,
      priceIsStale: station.isStale,
      cost: roundUsd(station.netPrice * stop.gallons),
      reason: explainStop(problem, simulation, position),
    };
  });
  const totalCost = stops.reduce((cents, stop) => cents + Math.round(stop.cost * 100), 0) / 100;
  const arrivalPercent = Math.round((simulation.arrivalFuelGallons / problem.tankGallons) * 100);

  return {
    status: stops.length === 0 ? 'no_stop_needed' : 'ok',
    reason:
      stops.length === 0
        ? `No stop needed: the fuel on board reaches ${problem.destinationName} with ${arrivalPercent}% in the tank.`
        : `${stops.length} ${stops.length === 1 ? 'stop' : 'stops'}, ${formatGallons(simulation.gallons)} gal ` +
          `for ${formatUsd(totalCost)}; arrives at ${problem.destinationName} with ${arrivalPercent}% in the tank.`,
    stops,
    totalCost,
    totalGallons: roundGallons(simulation.gallons),
    arrivalFuelGallons: roundGallons(simulation.arrivalFuelGallons),
    baseline,
    savingsVsBaseline: savingsAgainstBaseline(
      problem,
      { cost: totalCost, arrivalFuelGallons: simulation.arrivalFuelGallons },
      baseline,
    ),
  };
}
