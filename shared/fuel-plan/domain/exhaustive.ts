import { FUEL_TOLERANCE_GALLONS, GALLON_UNIT } from './policy.ts';
import type { FuelProblem } from './types.ts';

export type ExhaustiveSolution =
  | { feasible: true; gallonsByStation: number[]; objective: number; plansTried: number }
  | { feasible: false; plansTried: number };

/**
 * The reference solver for small instances (a handful of stations, a tank of a few dozen units):
 * tries every purchase at every station on the plan's lattice (the detour fuel plus k units of
 * GALLON_UNIT, k = 1, 2, … up to the tank, or no stop) by driving the route step by step, and keeps
 * the cheapest plan that breaks no rule. It shares no code with the optimizer on purpose: it is
 * what the property tests and the benchmark measure the optimizer against.
 *
 * The only shortcut is dropping a partial plan that already costs at least the best complete one,
 * which is safe because every purchase costs a non-negative amount. The search is exponential in
 * the number of stations: beyond `maxPlans` partial plans it throws rather than hang.
 */
export function solveFuelPlanExhaustively(problem: FuelProblem, maxPlans = 5_000_000): ExhaustiveSolution {
  const { stations, mpg, tankGallons, reserveGallons } = problem;
  const tolerance = FUEL_TOLERANCE_GALLONS;
  const chosen = new Array<number>(stations.length).fill(0);
  const best: { objective: number; plan: number[] | null } = {
    objective: Number.POSITIVE_INFINITY,
    plan: null,
  };
  let plansTried = 0;

  // fuel: on the route at `position`, after the stations before `index` were dealt with.
  const visit = (index: number, position: number, fuel: number, objective: number): void => {
    plansTried++;
    if (plansTried > maxPlans) throw new Error(`exhaustive search passed ${maxPlans} partial plans`);
    if (objective >= best.objective) return;
    const station = stations[index];
    if (!station) {
      const arrival = fuel - (problem.routeMiles - position) / mpg;
      if (arrival >= problem.arrivalRequiredGallons - tolerance) {
        best.objective = objective;
        best.plan = [...chosen];
      }
      return;
    }
    const atExit = fuel - (station.milesAlongRoute - position) / mpg;
    if (atExit < reserveGallons - tolerance) return;

    const oneWay = station.detourMiles / mpg;
    const atStation = atExit - oneWay;
    if (atStation >= reserveGallons - tolerance) {
      for (let units = Math.ceil(tankGallons / GALLON_UNIT) + 1; units >= 1; units--) {
        const gallons = units * GALLON_UNIT + 2 * oneWay;
        if (gallons < problem.minPurchaseGallons - tolerance) continue;
        if (atStation + gallons > tankGallons + tolerance) continue;
        chosen[index] = gallons;
        visit(
          index + 1,
          station.milesAlongRoute,
          atStation + gallons - oneWay,
          objective + station.objectivePrice * gallons,
        );
      }
      chosen[index] = 0;
    }
    visit(index + 1, station.milesAlongRoute, atExit, objective);
  };

  if (problem.currentFuelGallons >= reserveGallons - tolerance) {
    visit(0, 0, problem.currentFuelGallons, 0);
  }
  return best.plan
    ? { feasible: true, gallonsByStation: best.plan, objective: best.objective, plansTried }
    : { feasible: false, plansTried };
}
