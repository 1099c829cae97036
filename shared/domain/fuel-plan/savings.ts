import type { BaselineRun } from './baseline.ts';
import { roundUsd } from './format.ts';
import type { FuelProblem, SavingsVsBaseline } from './types.ts';

/**
 * The plan's saving against the baseline, on equal terms. The two rarely arrive with the same fuel
 * (the baseline fills to full and may arrive with half a tank), and fuel left in the tank is worth
 * what it cost, so the baseline's cost is first moved to the plan's arrival fuel: each gallon it
 * arrives with beyond the plan's is credited (each gallon short is charged) at the mean net price of
 * the stations on the route, the price the fleet would typically pay for it.
 *
 * @returns null when the baseline runs dry: a strategy that fails saves nothing to compare with.
 */
export function savingsAgainstBaseline(
  problem: FuelProblem,
  plan: { cost: number; arrivalFuelGallons: number },
  baseline: BaselineRun,
): SavingsVsBaseline | null {
  if (!baseline.feasible) return null;
  const { stations } = problem;
  const valuePerGallon =
    stations.length === 0
      ? 0
      : stations.reduce((sum, station) => sum + station.netPrice, 0) / stations.length;
  const adjusted = baseline.cost - (baseline.arrivalFuelGallons - plan.arrivalFuelGallons) * valuePerGallon;
  const usd = adjusted - plan.cost;
  return {
    usd: roundUsd(usd),
    percent: adjusted > 0 ? Math.round((usd / adjusted) * 1000) / 10 : 0,
    baselineAdjustedCost: roundUsd(adjusted),
    arrivalFuelValuePerGallon: roundUsd(valuePerGallon),
  };
}
