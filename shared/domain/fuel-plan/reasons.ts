import { formatGallons, formatMiles, formatUsd } from './format.ts';
import { GALLON_UNIT } from './policy.ts';
import type { FuelSimulation } from './simulate.ts';
import type { FuelProblem, RouteStation } from './types.ts';

/** Prices closer than half a cent read the same on a pump sign. */
const SAME_PRICE_USD = 0.005;

/**
 * The driver-ready reason for one stop of a simulated plan, built from the plan's facts only.
 * Why here, the first claim that holds of:
 * - no station passed before the next stop sells cheaper: "Cheapest diesel in the next N miles";
 * - the next stop is cheaper: this one only tops up to get there;
 * - the cheaper ones passed are all stale: "Cheapest confirmed price …";
 * - they cost more once their own detour is bought: "… once detours are counted";
 * - otherwise tank room and the minimum purchase decided, and the reason says so.
 * Then the price breakdown, and why this much: where the fuel takes the truck, with how much left.
 *
 * @example
 * explainStop(problem, simulation, 0);
 * // "Cheapest diesel in the next 312 miles: $3.46 net ($3.59 − $0.13). Buy 92 gal to reach
 * //  Denver with 20% in the tank."
 */
export function explainStop(problem: FuelProblem, simulation: FuelSimulation, stopPosition: number): string {
  const stop = simulation.stops[stopPosition];
  const station = stop && problem.stations[stop.stationIndex];
  if (!stop || !station) throw new RangeError(`no stop at position ${stopPosition}`);
  const nextStop = simulation.stops[stopPosition + 1];
  const nextStation = nextStop && problem.stations[nextStop.stationIndex];

  const windowMiles = formatMiles(
    (nextStation?.milesAlongRoute ?? problem.routeMiles) - station.milesAlongRoute,
  );
  const passed = problem.stations.slice(
    stop.stationIndex + 1,
    nextStop?.stationIndex ?? problem.stations.length,
  );
  const cheaper = passed.filter((other) => other.netPrice < station.netPrice - SAME_PRICE_USD);
  // What the same fuel would have cost there, its own detour fuel bought too.
  const gallonsForTheRoute = stop.gallons - (2 * station.detourMiles) / problem.mpg;
  const costFor = (other: RouteStation) =>
    other.netPrice * (gallonsForTheRoute + (2 * other.detourMiles) / problem.mpg);

  let why: string;
  let topUp = false;
  if (cheaper.length === 0) {
    why = `Cheapest diesel in the next ${windowMiles} miles`;
  } else if (nextStation && nextStation.netPrice < station.netPrice - SAME_PRICE_USD) {
    topUp = true;
    why =
      `Top up to reach cheaper diesel at ${nextStation.name} ` +
      `(mile ${formatMiles(nextStation.milesAlongRoute)}, ${formatUsd(nextStation.netPrice)} net)`;
  } else if (!station.isStale && cheaper.every((other) => other.isStale)) {
    why = `Cheapest confirmed price in the next ${windowMiles} miles`;
  } else if (cheaper.every((other) => other.isStale || costFor(other) >= costFor(station))) {
    why = `Cheapest diesel in the next ${windowMiles} miles once detours are counted`;
  } else {
    why = `Best buy for the next ${windowMiles} miles given tank room, detours and the minimum purchase`;
  }

  const target = !nextStation
    ? problem.destinationName
    : topUp
      ? 'it'
      : `${nextStation.name} (mile ${formatMiles(nextStation.milesAlongRoute)})`;
  const fuelThere = nextStop ? nextStop.fuelOnArrivalGallons : simulation.arrivalFuelGallons;
  const percent = Math.round((fuelThere / problem.tankGallons) * 100);
  const gallons = `${formatGallons(stop.gallons)} gal`;
  let buy = `Buy ${gallons}`;
  if (stop.fuelAfterPurchaseGallons >= problem.tankGallons - GALLON_UNIT / 2) {
    buy = `Fill up: buy ${gallons}`;
  } else if (problem.minPurchaseGallons > 0 && stop.gallons < problem.minPurchaseGallons + GALLON_UNIT / 2) {
    buy = `Buy ${gallons} (the minimum purchase)`;
  }
  return `${why}: ${priceBreakdown(station)}${detour(station)}. ${buy} to reach ${target} with ${percent}% in the tank.`;
}

function priceBreakdown(station: RouteStation): string {
  const stale = station.isStale ? ', price not confirmed recently' : '';
  if (station.discountPerGallon === 0) {
    return `${formatUsd(station.netPrice)} net (no fleet discount${stale})`;
  }
  return (
    `${formatUsd(station.netPrice)} net ` +
    `(${formatUsd(station.pricePerGallon)} − ${formatUsd(station.discountPerGallon)}${stale})`
  );
}

function detour(station: RouteStation): string {
  return station.detourMiles >= 0.05 ? `, ${station.detourMiles.toFixed(1)} miles off the route` : '';
}
