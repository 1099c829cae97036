import { formatGallons, formatUsd, roundGallons, roundUsd } from './format.ts';
import type { BaselineOutcome, FuelProblem, SavingsVsBaseline } from './types.ts';

/**
 * The plan's saving against the baseline, like for like. The two rarely arrive with the same fuel
 * (the baseline fills to full and may arrive with half a tank), and fuel left in the tank is worth
 * what the next tank costs, so the baseline is first brought to the plan's arrival fuel: each
 * gallon it arrives with beyond the plan's is credited (each gallon short is charged) at the mean
 * net price of the stations on the route, the price the fleet would typically pay for it.
 *
 * Every figure is computed from the rounded ones the response shows (gallons to 0.1, money to the
 * cent), so a reader can redo the sum: baseline cost − extra fuel × price = the baseline's cost at
 * the plan's arrival fuel; minus the plan's cost = the saving.
 *
 * @returns null when the baseline runs dry: a strategy that fails saves nothing to compare with.
 */
export function savingsAgainstBaseline(
  problem: { stations: readonly Pick<FuelProblem['stations'][number], 'netPrice'>[] },
  plan: { cost: number; arrivalFuelGallons: number },
  baseline: Pick<BaselineOutcome, 'feasible' | 'cost' | 'arrivalFuelGallons'>,
): SavingsVsBaseline | null {
  if (!baseline.feasible) return null;
  const { stations } = problem;
  const fuelValuePerGallon = roundUsd(
    stations.length === 0
      ? 0
      : stations.reduce((sum, station) => sum + station.netPrice, 0) / stations.length,
  );
  const planCost = roundUsd(plan.cost);
  const extraArrivalFuelGallons = roundGallons(
    roundGallons(baseline.arrivalFuelGallons) - roundGallons(plan.arrivalFuelGallons),
  );
  const extraArrivalFuelValue = roundUsd(extraArrivalFuelGallons * fuelValuePerGallon);
  const baselineCost = roundUsd(roundUsd(baseline.cost) - extraArrivalFuelValue);
  const usd = roundUsd(baselineCost - planCost);
  const percent = baselineCost > 0 ? Math.round((usd / baselineCost) * 1000) / 10 : 0;
  const figures = {
    extraArrivalFuelGallons,
    fuelValuePerGallon,
    extraArrivalFuelValue,
    baselineCost,
    planCost,
    usd,
    percent,
  };
  return {
    basis: 'same_arrival_fuel',
    ...figures,
    description: describeSavings(roundUsd(baseline.cost), figures),
  };
}

/** The comparison in words, with the figures of the response, so the sum can be checked by eye. */
function describeSavings(baselinePaid: number, f: Omit<SavingsVsBaseline, 'basis' | 'description'>): string {
  const price = `${formatUsd(f.fuelValuePerGallon)}/gal (the mean net price on the route)`;
  const outcome =
    f.usd >= 0
      ? `${formatUsd(f.usd)} (${f.percent}%) saved`
      : `the plan costs ${formatUsd(-f.usd)} (${-f.percent}%) more`;
  const against = `against the plan's ${formatUsd(f.planCost)}: ${outcome}.`;
  if (f.extraArrivalFuelGallons === 0) {
    return `Both arrive with the same fuel, so the costs compare directly: the baseline's ${formatUsd(baselinePaid)} ${against}`;
  }
  const more = f.extraArrivalFuelGallons > 0;
  const gallons = formatGallons(Math.abs(f.extraArrivalFuelGallons));
  const value = formatUsd(Math.abs(f.extraArrivalFuelValue));
  return (
    `The baseline arrives with ${gallons} gal ${more ? 'more' : 'less'} than the plan. ` +
    `Valued at ${price}, ${more ? 'that fuel is worth' : 'buying it costs'} ${value}, ` +
    `so to arrive with the plan's fuel the baseline costs ${formatUsd(baselinePaid)} ${more ? '−' : '+'} ${value} = ` +
    `${formatUsd(f.baselineCost)}, ${against}`
  );
}
