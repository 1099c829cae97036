import { counterfactualOver, stationsInReach } from './counterfactual.ts';
import { formatGallons, formatUsd, roundGallons, roundUsd } from './format.ts';
import { optimizeFuelPurchases } from './optimizer.ts';
import { prepareFuelProblem } from './problem.ts';
import { explainStop } from './reasons.ts';
import { meanStationPrice, planCounterfactual, planSavings } from './savings.ts';
import { type FuelSimulation, simulateFuelPurchases } from './simulate.ts';
import type {
  FuelPlan,
  FuelPlanInput,
  FuelProblem,
  FuelStop,
  PurchaseCounterfactual,
  RouteStation,
} from './types.ts';

/**
 * The fuel plan for a route: where to stop, how much to buy, why, what it costs, and what the same
 * purchases would have cost without the advice (the counterfactual: the mean price of the stations
 * in reach for each purchase). Pure: no I/O, same input, same plan.
 *
 * Computations are exact; rounding (gallons to 0.1, money to the cent) happens only here, in the
 * output. A stop's cost is its exact cost rounded; totalCost is the sum of the stops' rounded costs,
 * so the table adds up.
 *
 * @example
 * const plan = planFuel({ routeMiles: 1_200, destinationName: 'Denver', stations, tankGallons: 300,
 *   mpg: 6.5, currentFuelGallons: 120, minArrivalGallons: 60 });
 * if (plan.status === 'infeasible') console.log(plan.reason);
 */
export function planFuel(input: FuelPlanInput): FuelPlan {
  const problem = prepareFuelProblem(input);
  const { taxTreatment } = problem;
  const optimized = optimizeFuelPurchases(problem);
  if (!optimized.feasible) {
    return {
      status: 'infeasible',
      reason: optimized.reason,
      stops: [],
      totalCost: 0,
      totalGallons: 0,
      arrivalFuelGallons: null,
      taxTreatment,
      meanStationPrice: meanStationPrice(problem.stations),
      counterfactual: null,
      savings: null,
      fuelProgramShortfall: null,
    };
  }

  // A micro-gallon of slack: this check is for bugs, not for the optimizer's float rounding.
  const simulation = simulateFuelPurchases(problem, optimized.gallonsByStation, 1e-6);
  if (!simulation.feasible) {
    // The optimizer and the referee disagree: a bug, never a plan to hand a driver.
    throw new Error(`fuel plan breaks its own rules: ${simulation.violations.join('; ')}`);
  }
  const inReach = stationsInReach(problem, simulation);
  const counterfactuals = inReach.map((stations) => counterfactualOver(stations, taxTreatment));
  const pumpChoices = pumpPriceChoices(input, problem, simulation);
  const stops: FuelStop[] = simulation.stops.map((stop, position) => {
    const station = problem.stations[stop.stationIndex];
    const counterfactual = counterfactuals[position];
    if (!station || !counterfactual) throw new Error(`no station at index ${stop.stationIndex}`);
    return {
      stationId: station.id,
      name: station.name,
      milesAlongRoute: station.milesAlongRoute,
      detourMiles: station.detourMiles,
      gallons: roundGallons(stop.gallons),
      netPrice: roundUsd(station.netPrice),
      price: station.pricePerGallon,
      discount: station.discountPerGallon,
      priceIsStale: station.isStale,
      cost: roundUsd(station.netPrice * stop.gallons),
      state: station.state,
      stateTax: station.stateTax,
      effectivePrice: station.effectivePrice,
      // Like cost: the exact gallons (detour fuel included), so under `pump` the two are equal.
      effectiveCost: roundUsd(station.effectivePrice * stop.gallons),
      counterfactual,
      inFuelProgram: station.inFuelProgram,
      offProgramPenalty: station.offProgramPenalty,
      reason: explainStop(problem, simulation, position, pumpChoices[position] ?? null, inReach[position]),
    };
  });
  const totalCost = stops.reduce((cents, stop) => cents + Math.round(stop.cost * 100), 0) / 100;
  const counterfactual = planCounterfactual(
    simulation.stops.map((stop, position) => ({
      gallons: stop.gallons,
      counterfactual: counterfactuals[position] as PurchaseCounterfactual,
    })),
  );
  const arrivalPercent = Math.round((simulation.arrivalFuelGallons / problem.tankGallons) * 100);

  return {
    status: stops.length === 0 ? 'no_stop_needed' : 'ok',
    reason:
      stops.length === 0
        ? `No stop needed: the fuel on board reaches ${problem.destinationName} with ${arrivalPercent}% in the tank.`
        : `${stops.length} ${stops.length === 1 ? 'stop' : 'stops'}, ${formatGallons(simulation.gallons)} gal ` +
          `for ${formatUsd(totalCost)}; arrives at ${problem.destinationName} with ${arrivalPercent}% in the tank.`,
    stops,
    totalCost,
    totalGallons: roundGallons(simulation.gallons),
    arrivalFuelGallons: roundGallons(simulation.arrivalFuelGallons),
    taxTreatment,
    meanStationPrice: meanStationPrice(problem.stations),
    counterfactual,
    savings: planSavings(stops, counterfactual, taxTreatment),
    fuelProgramShortfall: null,
  };
}

/**
 * For each stop of a plan on tax-credited prices, the station a plan on pump prices (net of the
 * discount, no credit) buys at instead, when the credit flipped the choice: this stop is not in the
 * pump-price plan, and that plan's nearest stop not in this plan is cheaper at the pump but dearer
 * after its credit. Empty under `pump`, or when no station carries a state tax.
 */
function pumpPriceChoices(
  input: FuelPlanInput,
  problem: FuelProblem,
  simulation: FuelSimulation,
): (RouteStation | null)[] {
  if (problem.taxTreatment !== 'ifta' || !problem.stations.some((s) => (s.stateTax ?? 0) > 0)) return [];
  // The same input sorts the same way, so station indices match between the two problems.
  const pumpProblem = prepareFuelProblem({ ...input, taxTreatment: 'pump' });
  const pump = optimizeFuelPurchases(pumpProblem);
  if (!pump.feasible) return [];
  const ours = new Set(simulation.stops.map((stop) => stop.stationIndex));
  const theirs: RouteStation[] = [];
  pump.gallonsByStation.forEach((gallons, index) => {
    const station = problem.stations[index];
    if (gallons > 0 && station && !ours.has(index)) theirs.push(station);
  });
  const pumpIndices = new Set(
    pump.gallonsByStation.flatMap((gallons, index) => (gallons > 0 ? [index] : [])),
  );
  return simulation.stops.map((stop) => {
    const station = problem.stations[stop.stationIndex];
    if (!station || pumpIndices.has(stop.stationIndex)) return null;
    const nearest = theirs.reduce<RouteStation | null>(
      (best, other) =>
        best === null ||
        Math.abs(other.milesAlongRoute - station.milesAlongRoute) <
          Math.abs(best.milesAlongRoute - station.milesAlongRoute)
          ? other
          : best,
      null,
    );
    const flipped =
      nearest !== null &&
      nearest.netPrice < station.netPrice &&
      nearest.effectivePrice > station.effectivePrice;
    return flipped ? nearest : null;
  });
}
