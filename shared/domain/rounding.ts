/** The two precisions the API's numbers carry (miles, gallons and percents to 0.1; dollars to the cent). */
export function roundToTenth(value: number): number {
  return Math.round(value * 10) / 10;
}

export function roundToHundredth(value: number): number {
  return Math.round(value * 100) / 100;
}
