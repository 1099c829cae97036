import type { FuelTaxTreatment } from './treatment.ts';

/** Prices carry a tenth of a cent ($3.459), like pump signs. */
const roundPrice = (value: number) => Math.round(value * 1000) / 1000;

/** What the state tax credit takes off a gallon under a treatment: the rate under `ifta`, else 0. */
export const creditedTax = (stateTax: number | null, treatment: FuelTaxTreatment): number =>
  treatment === 'ifta' ? (stateTax ?? 0) : 0;

/**
 * The price a gallon really costs the fleet: pump − discount (the net price) − the credited state
 * tax. The one price the optimizer minimizes, the counterfactual averages and the report sums.
 */
export function effectivePrice(
  netPrice: number,
  stateTax: number | null,
  treatment: FuelTaxTreatment,
): number {
  return roundPrice(netPrice - creditedTax(stateTax, treatment));
}
