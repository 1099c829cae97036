import type { FuelProgramRule } from '#shared/fuel-programs/domain/program.ts';
import { formatGallons, formatMiles, formatPrice, roundGallons } from './format.ts';
import { optimizeFuelPurchases } from './optimizer.ts';
import { planFuel } from './plan.ts';
import { prepareFuelProblem } from './problem.ts';
import type {
  CandidateStation,
  FuelPlan,
  FuelPlanInput,
  FuelProgramShortfall,
  RouteStation,
} from './types.ts';

/**
 * The plan under the fleet's fuel card program. `none` and `preferred` plan over every station
 * (a `preferred` program's penalty is already in each station's objective price); `required` plans
 * over the accepted stations only. When that finds no plan but one over every station would, the
 * program is what stands in the way, and the plan says so plainly: status
 * `no_accepted_station_in_range` and the shortfall, never a silent off-program stop. When an
 * accepted stop is workable before the stretch no accepted station covers, the driver is still
 * sent there: the plan keeps the accepted stops up to that last workable fill, filling up there
 * (the most fuel the truck can carry into the uncovered stretch); otherwise it has no stops.
 * An infeasible plan that the program does not explain stays the accepted stations' own.
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
  const { shortfall, lastFill, maxFuelGallons } = uncoveredByProgram(acceptedInput);
  const upToLastFill = lastFill ? planToLastFill(acceptedInput, lastFill, maxFuelGallons, plan) : null;
  return {
    ...(upToLastFill ?? accepted),
    status: 'no_accepted_station_in_range',
    reason: describeShortfall(shortfall, accepted.reason, upToLastFill ? lastFill : null),
    // The plan ends short of the destination: no arrival to project.
    arrivalFuelGallons: null,
    fuelProgramShortfall: shortfall,
  };
}

/**
 * The accepted stops up to the last workable fill: the same plan on the route cut at that
 * station's point, arriving there with the most fuel the truck could carry past it. Null when
 * that plan has no stop (it cannot, but a driver is never handed a plan the planner disowns).
 */
function planToLastFill(
  acceptedInput: FuelPlanInput,
  lastFill: CandidateStation,
  maxFuelGallons: number,
  plan: (input: FuelPlanInput) => FuelPlan,
): FuelPlan | null {
  const cut = plan({
    ...acceptedInput,
    routeMiles: lastFill.milesAlongRoute,
    destinationName: lastFill.name,
    stations: acceptedInput.stations.filter((station) => station.milesAlongRoute <= lastFill.milesAlongRoute),
    minArrivalGallons: Math.min(acceptedInput.tankGallons, maxFuelGallons),
  });
  if (cut.status !== 'ok' || !cut.stops.some((stop) => stop.stationId === lastFill.id)) return null;
  // The cut route's own reason would call the station the destination.
  const stops = cut.stops.map((stop) =>
    stop.stationId === lastFill.id
      ? {
          ...stop,
          reason:
            `The last stop on your fuel card program before the stretch it does not cover: fill up, ` +
            `${formatGallons(stop.gallons)} gal at ${formatPrice(stop.netPrice)} net.`,
        }
      : stop,
  );
  return { ...cut, stops };
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
  return uncoveredByProgram(acceptedInput).shortfall;
}

/** The shortfall, and the last workable fill it is measured from (null: the truck's position). */
function uncoveredByProgram(acceptedInput: FuelPlanInput): {
  shortfall: FuelProgramShortfall;
  lastFill: CandidateStation | null;
  maxFuelGallons: number;
} {
  const problem = prepareFuelProblem(acceptedInput);
  const optimized = optimizeFuelPurchases(problem);
  const stretch = optimized.feasible ? null : optimized.stretch;
  const lastStopIndex = stretch?.lastStopIndex ?? null;
  const lastStop = lastStopIndex === null ? undefined : problem.stations[lastStopIndex];
  const lastFill = (lastStop && acceptedInput.stations.find((station) => station.id === lastStop.id)) ?? null;
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
      shortfall: {
        code: 'no_accepted_station_in_range',
        nearestAcceptedStop: null,
        shortfallMiles: null,
        shortfallGallons: null,
      },
      lastFill,
      maxFuelGallons,
    };
  }
  const shortMiles = nearest.milesAlongRoute + nearest.detourMiles - reachMile;
  return {
    shortfall: {
      code: 'no_accepted_station_in_range',
      nearestAcceptedStop: acceptedStopOf(nearest),
      shortfallMiles: Math.round(shortMiles * 10) / 10,
      shortfallGallons: roundGallons(shortMiles / problem.mpg),
    },
    lastFill,
    maxFuelGallons,
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
 * The plan's reason, plainly. With no workable accepted fill: "No station on your fuel card program
 * is within reach: the nearest, Love's Amarillo at mile 412, is 38 miles beyond your range above
 * the reserve (5.8 gal short)." After one: "No station on your fuel card program covers the stretch
 * after Love's Ardmore (mile 100): the next, Love's Amarillo at mile 700, is 20 miles beyond the
 * range there (3.1 gal short)."
 */
export function describeShortfall(
  shortfall: FuelProgramShortfall,
  acceptedReason: string,
  lastFill: Pick<CandidateStation, 'name' | 'milesAlongRoute'> | null = null,
): string {
  const stop = shortfall.nearestAcceptedStop;
  const opening = lastFill
    ? `No station on your fuel card program covers the stretch after ${lastFill.name} (mile ${formatMiles(lastFill.milesAlongRoute)})`
    : 'No station on your fuel card program is within reach';
  if (!stop || shortfall.shortfallMiles === null || shortfall.shortfallGallons === null) {
    return `${opening}, and none lies further ahead. ${acceptedReason}`;
  }
  const beyond = `${formatMiles(Math.ceil(shortfall.shortfallMiles))} miles beyond ${lastFill ? 'the range there' : 'your range above the reserve'}`;
  return (
    `${opening}: ${lastFill ? 'the next' : 'the nearest'}, ${stop.name} at mile ` +
    `${formatMiles(stop.milesAlongRoute)}, is ${beyond} (${formatGallons(shortfall.shortfallGallons)} gal short).`
  );
}
