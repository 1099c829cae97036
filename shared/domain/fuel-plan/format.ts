import { roundToHundredth, roundToTenth } from '../rounding.ts';

const MILES = /* @__PURE__ */ new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Whole miles with thousands separators ("1,204"). */
export function formatMiles(miles: number): string {
  return MILES.format(Math.round(miles));
}

/** Gallons to 0.1 gal, without a trailing ".0" ("92", "92.4"). */
export function formatGallons(gallons: number): string {
  return String(roundGallons(gallons));
}

/** USD with the sign and two decimals ("$3.46"). */
export function formatUsd(usd: number): string {
  return `$${roundUsd(usd).toFixed(2)}`;
}

/** Outputs carry gallons to 0.1 gal (the plan's lattice). */
export function roundGallons(gallons: number): number {
  return roundToTenth(gallons);
}

/** Outputs carry money to the cent. */
export function roundUsd(usd: number): number {
  return roundToHundredth(usd);
}
