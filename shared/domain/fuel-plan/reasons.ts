import { formatGallons, formatMiles, formatUsd } from './format.ts';
import { GALLON_UNIT } from './policy.ts';
import type { FuelSimulation } from './simulate.ts';
import type { FuelProblem, RouteStation } from './types.ts';

/** Prices closer than half a cent read the same on a pump sign. */
const SAME_PRICE_USD = 0.005;

/**
 * The driver-ready reason for one stop of a simulated plan, built from the plan's facts only:
 * why here (how this station's net price compares with every station passed before the next stop),
 * the price breakdown, and why this much (where the fuel takes the truck, and with how much left).
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

  const windowEnd = nextStation?.milesAlongRoute ?? problem.routeMiles;
  const passed = problem.stations.slice(
    stop.stationIndex + 1,
    nextStop?.stationIndex ?? problem.stations.length,
  );
  const why = whyHere(station, passed, windowEnd - station.milesAlongRoute);

  const target = nextStation
    ? `${nextStation.name} (mile ${formatMiles(nextStation.milesAlongRoute)})`
    : problem.destinationName;
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

function whyHere(station: RouteStation, passed: readonly RouteStation[], windowMiles: number): string {
  const miles = formatMiles(windowMiles);
  const cheaper = passed.filter((other) => other.netPrice < station.netPrice - SAME_PRICE_USD);
  if (cheaper.length === 0) return `Cheapest diesel in the next ${miles} miles`;
  if (!station.isStale && cheaper.every((other) => other.isStale)) {
    return `Cheapest confirmed price in the next ${miles} miles`;
  }
  // A cheaper sign ahead lost on its detour, the tank room left, or the minimum purchase.
  return `Best buy for the next ${miles} miles once detours and tank room are counted`;
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
