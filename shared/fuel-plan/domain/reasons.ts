import { stateName } from '#shared/fuel-tax/domain/state-names.ts';
import { formatGallons, formatMiles, formatPrice, formatUsd } from './format.ts';
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
 * Prices are compared on the plan's basis (the effective price: net of the credited state tax under
 * `ifta`). When a plan on pump prices would have bought at another station instead (`pumpChoice`),
 * the reason ends by saying the tax credit decided it. A stop off a `preferred` fuel program ends
 * by saying so, with the penalty and what it saves over the best accepted stop in reach (`inReach`:
 * the stations the truck could have bought at for this purchase, counterfactual.ts).
 *
 * @example
 * explainStop(problem, simulation, 0);
 * // "Cheapest diesel in the next 312 miles: $3.46 net ($3.59 − $0.13). Buy 92 gal to reach
 * //  Denver with 20% in the tank."
 */
export function explainStop(
  problem: FuelProblem,
  simulation: FuelSimulation,
  stopPosition: number,
  pumpChoice: RouteStation | null = null,
  inReach: readonly RouteStation[] = [],
): string {
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
  const cheaper = passed.filter((other) => other.effectivePrice < station.effectivePrice - SAME_PRICE_USD);
  // What the same fuel would have cost there, its own detour fuel bought too.
  const gallonsForTheRoute = stop.gallons - (2 * station.detourMiles) / problem.mpg;
  const costFor = (other: RouteStation) =>
    other.effectivePrice * (gallonsForTheRoute + (2 * other.detourMiles) / problem.mpg);

  let why: string;
  let topUp = false;
  if (cheaper.length === 0) {
    why = `Cheapest diesel in the next ${windowMiles} miles`;
  } else if (nextStation && nextStation.effectivePrice < station.effectivePrice - SAME_PRICE_USD) {
    topUp = true;
    why =
      `Top up to reach cheaper diesel at ${nextStation.name} ` +
      `(mile ${formatMiles(nextStation.milesAlongRoute)}, ${formatUsd(nextStation.effectivePrice)} ${priceWord(problem, nextStation)})`;
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
  const taxNote = pumpChoice ? ` ${taxCreditDecided(station, pumpChoice)}` : '';
  const programNote = station.inFuelProgram === false ? ` ${offProgramNote(station, inReach)}` : '';
  return `${why}: ${priceBreakdown(problem, station)}${detour(station)}. ${buy} to reach ${target} with ${percent}% in the tank.${taxNote}${programNote}`;
}

/**
 * Why a stop off the fleet's fuel card program (a `preferred` one: a `required` one never plans
 * it), against the best accepted stop the truck could have used for the same purchase. Prices on
 * the plan's basis, the penalty not in them:
 * "Off your fuel card program (penalty $0.10/gal): chosen because it is $0.18/gal cheaper than
 * Love's Ardmore, the best accepted stop in reach."
 */
export function offProgramNote(station: RouteStation, inReach: readonly RouteStation[]): string {
  const head = `Off your fuel card program (penalty ${formatPrice(station.offProgramPenalty)}/gal)`;
  const best = inReach.reduce<RouteStation | null>(
    (cheapest, other) =>
      other.inFuelProgram === true && (cheapest === null || other.effectivePrice < cheapest.effectivePrice)
        ? other
        : cheapest,
    null,
  );
  if (!best) return `${head}: no accepted stop is in reach for this purchase.`;
  const saves = best.effectivePrice - station.effectivePrice;
  if (saves >= SAME_PRICE_USD) {
    return `${head}: chosen because it is ${formatUsd(saves)}/gal cheaper than ${best.name}, the best accepted stop in reach.`;
  }
  // Not cheaper: price did not decide it (an exact tie goes to the accepted stop), the rest of the
  // reason says what did (tank room, detours, the minimum purchase, or the stop the driver was given).
  const other = -saves >= SAME_PRICE_USD ? `${formatUsd(-saves)}/gal cheaper` : 'the same price';
  return `${head}: not chosen for its price: ${best.name}, the best accepted stop in reach, is ${other}.`;
}

const creditsTax = (problem: FuelProblem) => problem.taxTreatment === 'ifta';
const credited = (problem: FuelProblem, station: RouteStation) =>
  creditsTax(problem) ? (station.stateTax ?? 0) : 0;
const priceWord = (problem: FuelProblem, station: RouteStation) =>
  credited(problem, station) > 0 ? 'after tax credit' : 'net';
const where = (station: RouteStation) => (station.state ? stateName(station.state) : 'its state');

/**
 * Why the tax credit chose this stop over the one a plan without the credit would have chosen,
 * as sums a driver can redo from the pump sign, both stations alike (prices at their own
 * precision, a tenth of a cent like the sign; the card and the credit only where there is one):
 * "The tax credit decided this stop: $3.859 − $0.10 card − $0.741 Pennsylvania credit = $3.018
 * here, against $3.70 − $0.15 card − $0.47 Ohio credit = $3.08 at Pilot #12, the pick without
 * the credit."
 */
function taxCreditDecided(station: RouteStation, pumpChoice: RouteStation): string {
  return (
    `The tax credit decided this stop: ${priceSum(station)} here, ` +
    `against ${priceSum(pumpChoice)} at ${pumpChoice.name}, the pick without the credit.`
  );
}

/** "$3.859 − $0.10 card − $0.741 Pennsylvania credit = $3.018": pump, card, credit, effective. */
function priceSum(station: RouteStation): string {
  const card = station.discountPerGallon > 0 ? ` − ${formatPrice(station.discountPerGallon)} card` : '';
  const tax = station.stateTax ?? 0;
  const credit = tax > 0 ? ` − ${formatPrice(tax)} ${where(station)} credit` : '';
  return `${formatPrice(station.pricePerGallon)}${card}${credit} = ${formatPrice(station.effectivePrice)}`;
}

function priceBreakdown(problem: FuelProblem, station: RouteStation): string {
  const stale = station.isStale ? ', price not confirmed recently' : '';
  const credit = credited(problem, station);
  if (credit > 0) {
    const discount = station.discountPerGallon === 0 ? '' : ` − ${formatUsd(station.discountPerGallon)}`;
    return (
      `${formatUsd(station.effectivePrice)} after tax credit ` +
      `(${formatUsd(station.pricePerGallon)}${discount} − ${formatUsd(credit)} ${where(station)} tax${stale})`
    );
  }
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
