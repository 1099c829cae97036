import { creditedTax } from '#shared/fuel-tax/domain/effective-price.ts';
import { FUEL_TOLERANCE_GALLONS } from './policy.ts';
import { prepareFuelProblem } from './problem.ts';
import type { FuelSimulation } from './simulate.ts';
import type { FuelPlanInput, FuelProblem, PurchaseCounterfactual, RouteStation } from './types.ts';

/**
 * What each purchase of a plan would cost without our advice: the mean price of the stations the
 * truck could have bought at instead. For a purchase, those are the candidate stations after the
 * previous purchase (from the truck's position for the first) that the fuel on board there reaches
 * while keeping the reserve, detour included; the stop itself is always among them. Peers publish
 * savings against the average price along the route; this is that average restricted to the
 * stations a driver left to choose could really have used for that purchase.
 *
 * Both means are on the plan's basis (the credited state tax off under `ifta`): `pumpPrice` without
 * the fleet's card, `netPrice` with it.
 */
export function purchaseCounterfactuals(
  problem: FuelProblem,
  simulation: Pick<FuelSimulation, 'stops'>,
): PurchaseCounterfactual[] {
  return stationsInReach(problem, simulation).map((inReach) =>
    counterfactualOver(inReach, problem.taxTreatment),
  );
}

/**
 * For each purchase of a plan, the stations the truck could have bought at instead: the candidate
 * stations after the previous purchase (from the truck's position for the first) that the fuel on
 * board there reaches while keeping the reserve, detour included; the stop itself always among them.
 */
export function stationsInReach(
  problem: FuelProblem,
  simulation: Pick<FuelSimulation, 'stops'>,
): RouteStation[][] {
  const { stations, mpg, reserveGallons } = problem;
  let fromIndex = 0;
  let fromMile = 0;
  let fuelThere = problem.currentFuelGallons;
  return simulation.stops.map((stop) => {
    const chosen = stations[stop.stationIndex];
    if (!chosen) throw new RangeError(`no station at index ${stop.stationIndex}`);
    const reachMile = fromMile + (fuelThere - reserveGallons + FUEL_TOLERANCE_GALLONS) * mpg;
    const inReach: RouteStation[] = [];
    for (let index = fromIndex; index < stations.length; index++) {
      const station = stations[index] as RouteStation;
      if (station.milesAlongRoute > reachMile) break;
      if (index === stop.stationIndex || station.milesAlongRoute + station.detourMiles <= reachMile) {
        inReach.push(station);
      }
    }
    if (!inReach.includes(chosen)) inReach.push(chosen);
    fromIndex = stop.stationIndex + 1;
    fromMile = chosen.milesAlongRoute;
    fuelThere = stop.fuelAfterPurchaseGallons - chosen.detourMiles / mpg;
    return inReach;
  });
}

/** The two means over a set of stations, on the treatment's basis. */
export function counterfactualOver(
  stations: readonly Pick<RouteStation, 'pricePerGallon' | 'effectivePrice' | 'stateTax'>[],
  treatment: FuelProblem['taxTreatment'],
): PurchaseCounterfactual {
  // Summed in tenths of a cent, each station's prices rounded as shown: float drift would otherwise
  // put a mean without any discount a tenth of a cent under the same mean with it.
  let pump = 0;
  let net = 0;
  for (const station of stations) {
    pump += Math.round((station.pricePerGallon - creditedTax(station.stateTax, treatment)) * 1000);
    net += Math.round(station.effectivePrice * 1000);
  }
  const count = Math.max(1, stations.length);
  return {
    pumpPrice: Math.round(pump / count) / 1000,
    netPrice: Math.round(net / count) / 1000,
    stationCount: stations.length,
  };
}
/** What a plan is compared with, in a sentence, as routes and trips state it. */
export const COUNTERFACTUAL_DESCRIPTION =
  'Each purchase of the plan, same gallons at the same point, bought instead at the mean price of the ' +
  'stations the truck could have used for it: those on the route from the previous purchase (or the start) ' +
  'that the fuel on board there reaches while keeping the reserve, the stop itself included. Prices on the ' +
  "plan's basis: net of the state tax credited on the IFTA return under `ifta`, pump prices under `pump`; " +
  '`cost_usd` with the fleet discount at each station, `pump_cost_usd` without it.';

/**
 * The counterfactual of a first purchase at `stationId` among the input's stations (the truck's
 * position is the previous purchase point); null when the station is not on the route.
 */
export function firstPurchaseCounterfactual(
  input: FuelPlanInput,
  stationId: string,
): PurchaseCounterfactual | null {
  const first = firstPurchaseInReach(input, stationId);
  return first && counterfactualOver(first.inReach, first.taxTreatment);
}

/**
 * A first purchase at `stationId` among the input's stations, priced as the plan prices it, and
 * the stations in reach for it (the truck's position the previous purchase point); null when the
 * station is not on the route.
 */
export function firstPurchaseInReach(
  input: FuelPlanInput,
  stationId: string,
): { station: RouteStation; inReach: RouteStation[]; taxTreatment: FuelProblem['taxTreatment'] } | null {
  const problem = prepareFuelProblem(input);
  const stationIndex = problem.stations.findIndex((station) => station.id === stationId);
  const station = problem.stations[stationIndex];
  if (!station) return null;
  const [inReach] = stationsInReach(problem, {
    stops: [{ stationIndex, gallons: 0, fuelOnArrivalGallons: 0, fuelAfterPurchaseGallons: 0 }],
  });
  return { station, inReach: inReach ?? [station], taxTreatment: problem.taxTreatment };
}
