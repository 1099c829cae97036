import { roundToHundredth, roundToTenth } from '#shared/kernel/rounding.ts';

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

/**
 * A price per gallon at its own precision, at least to the cent ("$3.859", "$0.10", "$0.2975"):
 * pump signs and tax rates carry fractions of a cent, and a sum a driver redoes must not lose them.
 */
export function formatPrice(usdPerGallon: number): string {
  const text = (Math.round(usdPerGallon * 10_000) / 10_000).toFixed(4);
  return `$${text.replace(/0{1,2}$/, '')}`;
}

/** Outputs carry gallons to 0.1 gal (the plan's lattice). */
export function roundGallons(gallons: number): number {
  return roundToTenth(gallons);
}

/** Outputs carry money to the cent. */
export function roundUsd(usd: number): number {
  return roundToHundredth(usd);
}
