/** The precisions the API's numbers carry (miles, gallons and percents to 0.1; dollars to the cent). */
export function roundToTenth(value: number): number {
  return Math.round(value * 10) / 10;
}

export function roundToHundredth(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Coordinates carry 5 decimal places (about 1.1 m), finer than a consumer GPS fix is true to. */
export const COORDINATE_DECIMALS = 5;

export function roundCoordinate(value: number): number {
  return Math.round(value * 1e5) / 1e5;
}
