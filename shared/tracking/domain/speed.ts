import { roundToHundredth, roundToTenth } from '#shared/kernel/rounding.ts';

export const KMH_PER_MPH = 1.609344;

/**
 * Spec section 2: a breadcrumb's `speed_mph` is converted to km/h on write (the detection policy
 * works in km/h). Kept to 0.01 km/h (under 0.01 mph), so reading it back in mph to 0.1 gives the
 * speed that was sent.
 */
export function kmhFromMph(mph: number): number {
  return roundToHundredth(mph * KMH_PER_MPH);
}

/** The stored km/h as the API answers it: mph (US customary units, docs/units-and-numbers.md), to 0.1 mph. */
export function mphFromKmh(kmh: number): number {
  return roundToTenth(kmh / KMH_PER_MPH);
}
