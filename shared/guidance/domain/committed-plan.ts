import { formatGallons, formatUsd, roundGallons, roundUsd } from '#shared/fuel-plan/domain/format.ts';
import {
  DEFAULT_MIN_PURCHASE_GALLONS,
  DEFAULT_RESERVE_FRACTION,
  FUEL_TOLERANCE_GALLONS,
  firstPurchaseCounterfactual,
  firstPurchaseInReach,
  GALLON_UNIT,
  offProgramNote,
  planCounterfactual,
  planFuel,
  planSavings,
} from '#shared/fuel-plan/domain/index.ts';
import type { CandidateStation, FuelPlan, FuelPlanInput, FuelStop } from '#shared/fuel-plan/domain/types.ts';
import { effectivePrice } from '#shared/fuel-tax/domain/effective-price.ts';
import { DEFAULT_FUEL_TAX_TREATMENT } from '#shared/fuel-tax/domain/treatment.ts';

/**
 * The cheapest plan whose first stop is `first` (nothing bought before it), buying afterwards only
 * at `later` (stations at or beyond it on the route). The plan of POST /v1/routes when that plan
 * stops there anyway; when it would not (the stop is no longer needed, or cheaper fuel follows),
 * the minimum purchase at `first` and the cheapest plan from there on. Infeasible when the truck
 * cannot reach `first` above the reserve, the tank has no room for the minimum purchase there, or
 * nothing reaches the destination from it.
 *
 * The first stop's counterfactual is over every station of the input in reach (those passed
 * before `first` too): what the driver could have bought at instead of the stop they were given.
 */
export function planFirstStoppingAt(
  input: FuelPlanInput,
  first: CandidateStation,
  later: readonly CandidateStation[],
): FuelPlan {
  const free = planFuel({ ...input, stations: [first, ...later] });
  if (free.status === 'infeasible') return free;
  return withFirstCounterfactual(
    input,
    free.stops[0]?.stationId === first.id ? free : withMinimumPurchaseAt(input, first, later, free),
  );
}

function withFirstCounterfactual(input: FuelPlanInput, plan: FuelPlan): FuelPlan {
  const [head, ...rest] = plan.stops;
  const counterfactual = head && firstPurchaseCounterfactual(input, head.stationId);
  if (!head || !counterfactual) return plan;
  const stops = [{ ...head, counterfactual }, ...rest];
  // Guidance shows no saving; the shown gallons (to 0.1) are close enough for its comparison.
  const comparison = planCounterfactual(stops);
  return {
    ...plan,
    stops,
    counterfactual: comparison,
    savings: planSavings(stops, comparison, plan.taxTreatment),
  };
}

function withMinimumPurchaseAt(
  input: FuelPlanInput,
  first: CandidateStation,
  later: readonly CandidateStation[],
  free: FuelPlan,
): FuelPlan {
  const { mpg, tankGallons } = input;
  const reserve = input.reserveGallons ?? DEFAULT_RESERVE_FRACTION * tankGallons;
  const minPurchase = input.minPurchaseGallons ?? DEFAULT_MIN_PURCHASE_GALLONS;
  const oneWay = first.detourMiles / mpg;
  const atExit = input.currentFuelGallons - first.milesAlongRoute / mpg;
  // As the plan counts a purchase: the detour's fuel there and back, plus what stays in the tank.
  const kept = Math.max(GALLON_UNIT, Math.ceil((minPurchase - 2 * oneWay) / GALLON_UNIT) * GALLON_UNIT);
  const bought = kept + 2 * oneWay;
  const infeasible = (reason: string): FuelPlan => ({
    ...free,
    status: 'infeasible',
    reason,
    stops: [],
    totalCost: 0,
    totalGallons: 0,
    arrivalFuelGallons: null,
    counterfactual: null,
    savings: null,
  });
  if (atExit - oneWay < reserve - FUEL_TOLERANCE_GALLONS) {
    return infeasible(`${first.name} is no longer reachable above the reserve.`);
  }
  if (atExit + oneWay + kept > tankGallons + FUEL_TOLERANCE_GALLONS) {
    return infeasible(`The tank has no room for the minimum purchase at ${first.name}.`);
  }
  const rest = planFuel({
    ...input,
    routeMiles: Math.max(0, input.routeMiles - first.milesAlongRoute),
    currentFuelGallons: atExit + kept,
    stations: later.map((station) => ({
      ...station,
      milesAlongRoute: station.milesAlongRoute - first.milesAlongRoute,
    })),
  });
  if (rest.status === 'infeasible') return infeasible(rest.reason);
  const netPrice = first.pricePerGallon - first.discountPerGallon;
  const treatment = input.taxTreatment ?? DEFAULT_FUEL_TAX_TREATMENT;
  const effective = effectivePrice(netPrice, first.stateTax ?? null, treatment);
  // An off-program stop says so, against the best accepted stop in reach from the truck.
  const priced = first.inFuelProgram === false ? firstPurchaseInReach(input, first.id) : null;
  const programNote = priced ? ` ${offProgramNote(priced.station, priced.inReach)}` : '';
  const stop: FuelStop = {
    stationId: first.id,
    name: first.name,
    milesAlongRoute: first.milesAlongRoute,
    detourMiles: first.detourMiles,
    gallons: roundGallons(bought),
    netPrice: roundUsd(netPrice),
    price: first.pricePerGallon,
    discount: first.discountPerGallon,
    priceIsStale: first.isStale,
    inFuelProgram: first.inFuelProgram ?? null,
    offProgramPenalty: first.offProgramPenalty ?? 0,
    cost: roundUsd(netPrice * bought),
    state: first.state ?? null,
    stateTax: first.stateTax ?? null,
    effectivePrice: effective,
    effectiveCost: roundUsd(effective * bought),
    // Replaced by the counterfactual over every station in reach (withFirstCounterfactual).
    counterfactual: {
      pumpPrice: effectivePrice(first.pricePerGallon, first.stateTax ?? null, treatment),
      netPrice: effective,
      stationCount: 1,
    },
    reason:
      `The stop you were given: ${effective < netPrice ? `${formatUsd(effective)} after tax credit` : `${formatUsd(netPrice)} net`}. Buy ${formatGallons(bought)} gal ` +
      `(the minimum purchase); ${rest.stops.length === 0 ? `that reaches ${input.destinationName}` : 'the plan continues from here'}.${programNote}`,
  };
  const stops = [
    stop,
    ...rest.stops.map((s) => ({ ...s, milesAlongRoute: s.milesAlongRoute + first.milesAlongRoute })),
  ];
  const totalCost = stops.reduce((cents, s) => cents + Math.round(s.cost * 100), 0) / 100;
  const totalGallons = roundGallons(stops.reduce((sum, s) => sum + s.gallons, 0));
  const arrival = rest.arrivalFuelGallons ?? 0;
  return {
    status: 'ok',
    reason:
      `${stops.length} ${stops.length === 1 ? 'stop' : 'stops'}, ${formatGallons(totalGallons)} gal ` +
      `for ${formatUsd(totalCost)}; arrives at ${input.destinationName} with ` +
      `${Math.round((arrival / tankGallons) * 100)}% in the tank.`,
    stops,
    totalCost,
    totalGallons,
    arrivalFuelGallons: arrival,
    taxTreatment: treatment,
    meanStationPrice: free.meanStationPrice,
    // Set with the first stop's counterfactual (withFirstCounterfactual).
    counterfactual: null,
    savings: null,
    fuelProgramShortfall: null,
  };
}
