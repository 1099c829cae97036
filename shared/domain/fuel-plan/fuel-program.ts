import type { FuelProgramRule } from '../fuel-program/program.ts';
import { formatGallons, formatMiles, roundGallons } from './format.ts';
import { optimizeFuelPurchases } from './optimizer.ts';
import { planFuel } from './plan.ts';
import { prepareFuelProblem } from './problem.ts';
import type { FuelPlan, FuelPlanInput, FuelProgramShortfall, RouteStation } from './types.ts';

/**
 * The plan under the fleet's fuel card program. `none` and `preferred` plan over every station
 * (a `preferred` program's penalty is already in each station's objective price); `required` plans
 * over the accepted stations only. When that finds no plan but one over every station would, the
 * program is what stands in the way, and the plan says so plainly: status
 * `no_accepted_station_in_range`, no stops (never a silent off-program stop), and the shortfall.
 * Otherwise an infeasible plan stays the accepted stations' own.
 *
 * `plan` is how a plan is made from an input: planFuel for routes and trips, guidance's choice
 * (commitment, the reserve fallback) for a session, so the reserve rule is tried on the accepted
 * stations before the program is blamed.
 */
export function planWithinProgram(
  input: FuelPlanInput,
  rule: FuelProgramRule,
  plan: (input: FuelPlanInput) => FuelPlan = planFuel,
): FuelPlan {
  if (rule !== 'required') return plan(input);
  const acceptedInput = { ...input, stations: acceptedStations(input) };
  const accepted = plan(acceptedInput);
  if (accepted.status !== 'infeasible' || acceptedInput.stations.length === input.stations.length) {
    return accepted;
  }
  if (plan(input).status === 'infeasible') return accepted;
  const shortfall = fuelProgramShortfall(acceptedInput);
  return {
    ...accepted,
    status: 'no_accepted_station_in_range',
    reason: describeShortfall(shortfall, accepted.reason),
    stops: [],
    fuelProgramShortfall: shortfall,
  };
}

/** The stations a `required` program lets a plan recommend. */
export const acceptedStations = (input: Pick<FuelPlanInput, 'stations'>) =>
  input.stations.filter((station) => station.inFuelProgram === true);

/**
 * How far short of the program the tank falls, for an input over the accepted stations that no
 * plan covers: from the last point where the plan could fill up (or the truck's position), with
 * the most fuel it could carry from there, the range above the reserve; the nearest accepted stop
 * is the first beyond that range (its detour counted), and the shortfall how far beyond. A truck
 * already below the reserve has no range above it.
 */
export function fuelProgramShortfall(acceptedInput: FuelPlanInput): FuelProgramShortfall {
  const problem = prepareFuelProblem(acceptedInput);
  const optimized = optimizeFuelPurchases(problem);
  const stretch = optimized.feasible ? null : optimized.stretch;
  const lastStopIndex = stretch?.lastStopIndex ?? null;
  const lastStop = lastStopIndex === null ? undefined : problem.stations[lastStopIndex];
  const maxFuelGallons = stretch?.maxFuelGallons ?? problem.currentFuelGallons;
  const reachMile =
    (lastStop?.milesAlongRoute ?? 0) + Math.max(0, maxFuelGallons - problem.reserveGallons) * problem.mpg;
  const nearest = problem.stations.find(
    (station, index) =>
      (lastStopIndex === null || index > lastStopIndex) &&
      station.milesAlongRoute + station.detourMiles > reachMile,
  );
  if (!nearest) {
    return {
      code: 'no_accepted_station_in_range',
      nearestAcceptedStop: null,
      shortfallMiles: null,
      shortfallGallons: null,
    };
  }
  const shortMiles = nearest.milesAlongRoute + nearest.detourMiles - reachMile;
  return {
    code: 'no_accepted_station_in_range',
    nearestAcceptedStop: acceptedStopOf(nearest),
    shortfallMiles: Math.round(shortMiles * 10) / 10,
    shortfallGallons: roundGallons(shortMiles / problem.mpg),
  };
}

function acceptedStopOf(station: RouteStation): FuelProgramShortfall['nearestAcceptedStop'] {
  return {
    stationId: station.id,
    name: station.name,
    chain: station.chain ?? null,
    state: station.state,
    milesAlongRoute: station.milesAlongRoute,
    detourMiles: station.detourMiles,
  };
}

/**
 * The plan's reason, plainly: "No station on your fuel card program is within reach: the nearest,
 * Love's Amarillo at mile 412, is 38 miles beyond your range above the reserve (6.1 gal short)."
 */
export function describeShortfall(shortfall: FuelProgramShortfall, acceptedReason: string): string {
  const stop = shortfall.nearestAcceptedStop;
  if (!stop || shortfall.shortfallMiles === null || shortfall.shortfallGallons === null) {
    return `No station on your fuel card program is within reach, and none lies further ahead. ${acceptedReason}`;
  }
  return (
    `No station on your fuel card program is within reach: the nearest, ${stop.name} at mile ` +
    `${formatMiles(stop.milesAlongRoute)}, is ${formatMiles(Math.ceil(shortfall.shortfallMiles))} miles beyond your ` +
    `range above the reserve (${formatGallons(shortfall.shortfallGallons)} gal short).`
  );
}
