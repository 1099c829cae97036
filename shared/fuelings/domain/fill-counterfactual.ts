/** Where a fill's counterfactual comes from (the fueling's `counterfactual.source`). */
export const COUNTERFACTUAL_SOURCES = [
  'followed_recommendation',
  'passed_over_recommendation',
  'own_price',
] as const;
export type CounterfactualSource = (typeof COUNTERFACTUAL_SOURCES)[number];

export interface FillCounterfactual {
  source: CounterfactualSource;
  /** Mean of (posted − credited tax) of the stations the truck could have used: no card, no advice. */
  pumpPrice: number;
  /** Mean of (posted − the fleet's discount − credited tax): the card, no advice. */
  netPrice: number;
  /** Stations averaged; null for the fill's own price. */
  stationCount: number | null;
}
