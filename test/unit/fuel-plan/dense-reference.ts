import { fuelLattice } from '#shared/fuel-plan/domain/lattice.ts';
import { FUEL_TOLERANCE_GALLONS, GALLON_UNIT } from '#shared/fuel-plan/domain/policy.ts';
import type { FuelProblem } from '#shared/fuel-plan/domain/types.ts';

/**
 * The optimizer's DP in its plain dense form: one array entry per 0.1-gal level, one pass per
 * station, O(stations × levels). Too slow for the API (about 7 ms on a 3,500-mile route with 500
 * stations) and too big for the exhaustive solver's small instances to cover; it referees the fast
 * run-based optimizer on realistic tanks and routes. Returns the least objective, or null when no
 * plan exists.
 */
export function denseLeastObjective(problem: FuelProblem): number | null {
  if (problem.currentFuelGallons < problem.reserveGallons - FUEL_TOLERANCE_GALLONS) return null;
  const lattice = fuelLattice(problem);
  let size = 1;
  for (const bounds of lattice.stations) size = Math.max(size, bounds.stopMax + 1);
  // cost[K]: least cost of having bought K units; Infinity: impossible.
  let cost = new Float64Array(size).fill(Number.POSITIVE_INFINITY);
  let next = new Float64Array(size).fill(Number.POSITIVE_INFINITY);
  cost[0] = 0;
  let lo = 0;

  problem.stations.forEach((station, i) => {
    const bounds = lattice.stations[i];
    if (!bounds) return;
    lo = Math.max(lo, bounds.reachMin);
    for (let k = 0; k < lo; k++) cost[k] = Number.POSITIVE_INFINITY;
    next.set(cost);
    const price = station.objectivePrice;
    let runningMin = Number.POSITIVE_INFINITY;
    for (let target = bounds.stopMin + bounds.unitsMin; target <= bounds.stopMax; target++) {
      const source = target - bounds.unitsMin;
      if (source >= bounds.stopMin) {
        runningMin = Math.min(runningMin, (cost[source] as number) - price * GALLON_UNIT * source);
      }
      const stop = runningMin + price * (GALLON_UNIT * target + bounds.detourGallons);
      if (stop < (next[target] as number)) next[target] = stop;
    }
    [cost, next] = [next, cost];
  });

  let best = Number.POSITIVE_INFINITY;
  for (let k = Math.max(lo, lattice.arrivalMin); k < size; k++) best = Math.min(best, cost[k] as number);
  return best === Number.POSITIVE_INFINITY ? null : best;
}
