import { FUEL_TOLERANCE_GALLONS } from './policy.ts';
import type { FuelProblem } from './types.ts';

export interface SimulatedStop {
  /** Index into problem.stations. */
  stationIndex: number;
  gallons: number;
  /** In the tank on pulling in, after the detour there. */
  fuelOnArrivalGallons: number;
  fuelAfterPurchaseGallons: number;
}

export interface FuelSimulation {
  feasible: boolean;
  /** Each broken rule, in route order; empty when feasible. */
  violations: string[];
  /** USD at net prices. */
  cost: number;
  /** USD at objective prices (stale penalty included): what the optimizer minimizes. */
  objective: number;
  gallons: number;
  arrivalFuelGallons: number;
  stops: SimulatedStop[];
}

/**
 * Drives the route with the given purchases and checks every rule of the plan: fuel never below the
 * reserve (on the route and at a station after its detour), never above the tank, each purchase at
 * least the minimum, arrival at or above the minimum. It is the referee for the optimizer, the
 * exhaustive solver and the stops' reasons, so it works in plain miles and gallons, step by step.
 *
 * @param gallonsByStation gallons bought at each of problem.stations (0: no stop), detour fuel included.
 */
export function simulateFuelPurchases(
  problem: FuelProblem,
  gallonsByStation: readonly number[],
  tolerance = FUEL_TOLERANCE_GALLONS,
): FuelSimulation {
  const { stations, mpg, tankGallons, reserveGallons } = problem;
  const violations: string[] = [];
  const stops: SimulatedStop[] = [];
  let fuel = problem.currentFuelGallons;
  let position = 0;
  let cost = 0;
  let objective = 0;
  let gallons = 0;
  if (fuel < reserveGallons - tolerance) violations.push(`starts below the reserve (${fuel} gal)`);

  stations.forEach((station, stationIndex) => {
    fuel -= (station.milesAlongRoute - position) / mpg;
    position = station.milesAlongRoute;
    const bought = gallonsByStation[stationIndex] ?? 0;
    if (bought <= 0) return;
    const detourGallons = station.detourMiles / mpg;
    const onArrival = fuel - detourGallons;
    if (onArrival < reserveGallons - tolerance) {
      violations.push(`reaches ${station.id} with ${onArrival} gal, below the reserve`);
    }
    if (bought < problem.minPurchaseGallons - tolerance) {
      violations.push(`buys ${bought} gal at ${station.id}, below the minimum purchase`);
    }
    const afterPurchase = onArrival + bought;
    if (afterPurchase > tankGallons + tolerance) {
      violations.push(`fills ${station.id} to ${afterPurchase} gal, above the tank`);
    }
    stops.push({
      stationIndex,
      gallons: bought,
      fuelOnArrivalGallons: onArrival,
      fuelAfterPurchaseGallons: afterPurchase,
    });
    fuel = afterPurchase - detourGallons;
    cost += station.netPrice * bought;
    objective += station.objectivePrice * bought;
    gallons += bought;
  });

  // Fuel only falls between stops, so checking each stop's arrival and the destination covers every mile.
  fuel -= (problem.routeMiles - position) / mpg;
  if (fuel < problem.arrivalRequiredGallons - tolerance) {
    violations.push(`arrives with ${fuel} gal, below the required ${problem.arrivalRequiredGallons} gal`);
  }
  return {
    feasible: violations.length === 0,
    violations,
    cost,
    objective,
    gallons,
    arrivalFuelGallons: fuel,
    stops,
  };
}
