import { formatGallons, formatMiles } from './format.ts';
import type { FuelProblem } from './types.ts';

/** Where the optimizer found that no plan exists, and the most the truck could have carried to it. */
export interface UncoveredStretch {
  /** The first station the truck cannot reach on the route, or the destination. */
  checkpoint: number | 'destination';
  /** The last station before it where a stop was possible (index into problem.stations), if any. */
  lastStopIndex: number | null;
  /** The most fuel on board when leaving that station (or at the start), in gallons. */
  maxFuelGallons: number;
  /** Stations between that point and the checkpoint that could not be used for a stop. */
  unusableStationsBetween: number;
}

/**
 * Says, for a driver or a dispatcher, which stretch of the route no plan can cover: the distance
 * to the next station (or the destination) from the last point where the truck could fill up,
 * against the range the fullest possible tank gives there. The gap is rounded up and the range
 * down, so the sentence never makes the stretch look coverable.
 *
 * @example
 * // "No station within reach after Pilot Amarillo (mile 412): next station is 412 miles ahead,
 * //  range is 380 miles."
 */
export function describeUncoveredStretch(problem: FuelProblem, stretch: UncoveredStretch): string {
  const { stations, mpg } = problem;
  const lastStop = stretch.lastStopIndex === null ? undefined : stations[stretch.lastStopIndex];
  const fromMiles = lastStop?.milesAlongRoute ?? 0;
  const where = lastStop
    ? ` after ${lastStop.name} (mile ${formatMiles(lastStop.milesAlongRoute)})`
    : ' from the start';
  const onCurrentFuel = lastStop ? '' : ` on the current ${formatGallons(problem.currentFuelGallons)} gal`;
  const between =
    stretch.unusableStationsBetween === 0
      ? ''
      : ` ${stretch.unusableStationsBetween} station(s) in between cannot be used: too far off the route, or no room for the minimum purchase.`;

  if (stretch.checkpoint === 'destination') {
    const required = problem.arrivalRequiredGallons;
    const percent = Math.round((required / problem.tankGallons) * 100);
    const range = Math.max(0, (stretch.maxFuelGallons - required) * mpg);
    return (
      `Cannot reach ${problem.destinationName} with ${percent}% in the tank: it is ` +
      `${formatMiles(Math.ceil(problem.routeMiles - fromMiles))} miles${lastStop ? where : ' away'}, ` +
      `range is ${formatMiles(Math.floor(range))} miles${onCurrentFuel}.${between}`
    );
  }
  const next = stations[stretch.checkpoint];
  const gap = (next?.milesAlongRoute ?? problem.routeMiles) - fromMiles;
  const range = Math.max(0, (stretch.maxFuelGallons - problem.reserveGallons) * mpg);
  return (
    `No station within reach${where}: next station is ${formatMiles(Math.ceil(gap))} miles ahead, ` +
    `range is ${formatMiles(Math.floor(range))} miles${onCurrentFuel}.${between}`
  );
}
