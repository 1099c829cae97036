import { formatUsd, roundGallons, roundUsd } from './format.ts';
import type { FuelStop, PlanCounterfactual, PlanSavings } from './types.ts';

const cents = (usd: number) => Math.round(usd * 100);

/**
 * The plan's counterfactual: its own gallons, at the same moments, each bought at its purchase's
 * counterfactual price (counterfactual.ts). Same gallons at the same points, so both arrive with
 * the same fuel and the costs compare directly. Each stop's figure is rounded to the cent before
 * they are summed, like the stops' own costs (gallons × price, the gallons exact: a purchase
 * carries its detour's fuel, shown to 0.1 gal).
 */
export function planCounterfactual(
  purchases: readonly Pick<FuelStop, 'gallons' | 'counterfactual'>[],
): PlanCounterfactual {
  let cost = 0;
  let pumpCost = 0;
  let gallons = 0;
  for (const purchase of purchases) {
    cost += cents(purchase.gallons * purchase.counterfactual.netPrice);
    pumpCost += cents(purchase.gallons * purchase.counterfactual.pumpPrice);
    gallons += purchase.gallons;
  }
  return {
    strategy: 'mean_price_in_reach',
    gallons: roundGallons(gallons),
    cost: cost / 100,
    pumpCost: pumpCost / 100,
  };
}

/**
 * The mean effective price of the stations, to the cent (0 with none): the plan's price basis, so
 * under `pump` the mean net price.
 */
export function meanStationPrice(stations: readonly { effectivePrice: number }[]): number {
  if (stations.length === 0) return 0;
  return roundUsd(stations.reduce((sum, station) => sum + station.effectivePrice, 0) / stations.length);
}

/**
 * The saving of the plan against its counterfactual: what choosing where to buy saved (the routing
 * part, `usd`), with what the fleet's card is worth on the same corridor beside it (not counted:
 * the card saves that wherever the truck buys).
 *
 * @returns null when the plan buys nothing: no purchase, nothing to compare.
 */
export function planSavings(
  stops: readonly Pick<FuelStop, 'gallons' | 'counterfactual' | 'effectiveCost'>[],
  counterfactual: PlanCounterfactual,
  taxTreatment: PlanSavings['taxTreatment'],
): PlanSavings | null {
  if (stops.length === 0) return null;
  const planCost = stops.reduce((sum, stop) => sum + cents(stop.effectiveCost), 0) / 100;
  const counterfactualCost = counterfactual.cost;
  const routingUsd = roundUsd(counterfactualCost - planCost);
  const cardUsd = roundUsd(counterfactual.pumpCost - counterfactualCost);
  const percent = counterfactualCost > 0 ? Math.round((routingUsd / counterfactualCost) * 1000) / 10 : 0;
  const figures = { counterfactualCost, planCost, routingUsd, cardUsd, usd: routingUsd, percent };
  return {
    basis: 'counterfactual_in_reach',
    taxTreatment,
    ...figures,
    description: describeSavings(taxTreatment, figures),
  };
}

/** The comparison in words, with the figures of the response, so the sum can be checked by eye. */
function describeSavings(
  treatment: PlanSavings['taxTreatment'],
  f: Omit<PlanSavings, 'basis' | 'taxTreatment' | 'description'>,
): string {
  const basis =
    treatment === 'ifta'
      ? 'net of the fleet discount and of the state tax credited on the IFTA return'
      : 'net of the fleet discount (pump prices, no tax credit)';
  const outcome =
    f.usd >= 0
      ? `${formatUsd(f.usd)} (${f.percent}%) saved by where the plan buys`
      : `the plan costs ${formatUsd(-f.usd)} (${-f.percent}%) more`;
  return (
    `Each stop's gallons bought instead at the mean price of the stations in reach for that purchase, ` +
    `${basis}, cost ${formatUsd(f.counterfactualCost)}; the plan pays ${formatUsd(f.planCost)} on the same basis: ` +
    `${outcome}. The fleet's card is worth a further ${formatUsd(f.cardUsd)} on this corridor wherever the truck buys, ` +
    `not counted here.`
  );
}
