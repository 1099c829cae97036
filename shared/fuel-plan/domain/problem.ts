import { effectivePrice } from '#shared/fuel-tax/domain/effective-price.ts';
import { DEFAULT_FUEL_TAX_TREATMENT } from '#shared/fuel-tax/domain/treatment.ts';
import {
  DEFAULT_MIN_PURCHASE_GALLONS,
  DEFAULT_RESERVE_FRACTION,
  OFF_PROGRAM_TIE_BREAK_USD,
  STALE_PRICE_PENALTY_USD,
} from './policy.ts';
import type { CandidateStation, FuelPlanInput, FuelProblem, RouteStation } from './types.ts';

function isWithin(value: number, min: number, max = Number.POSITIVE_INFINITY): boolean {
  return Number.isFinite(value) && value >= min && value <= max;
}

function requireWithin(name: string, value: number, min: number, max = Number.POSITIVE_INFINITY): void {
  if (!isWithin(value, min, max)) {
    throw new RangeError(`${name} must be a finite number in [${min}, ${max}], got ${value}`);
  }
}

/** The first nonsense field of a station, or null; no message is built for the 500 good ones. */
function invalidStationField(station: CandidateStation): keyof CandidateStation | null {
  if (!Number.isFinite(station.milesAlongRoute)) return 'milesAlongRoute';
  if (!isWithin(station.detourMiles, 0)) return 'detourMiles';
  if (!isWithin(station.pricePerGallon, 0)) return 'pricePerGallon';
  if (!isWithin(station.discountPerGallon, 0, station.pricePerGallon)) return 'discountPerGallon';
  // The tax is part of the net price: a credit above it would make fuel pay the fleet to take it.
  const { stateTax } = station;
  if (stateTax != null && !isWithin(stateTax, 0, station.pricePerGallon - station.discountPerGallon)) {
    return 'stateTax';
  }
  if (!isWithin(station.offProgramPenalty ?? 0, 0)) return 'offProgramPenalty';
  return null;
}

/**
 * What the optimizer minimizes per gallon at a station: its effective price, the stale-price
 * penalty, and off a fuel card program the fleet's penalty plus a tie-break, so an exact tie goes
 * to the accepted stop. The optimizer and the exhaustive reference both read it from the problem.
 */
export function objectivePrice(
  effective: number,
  isStale: boolean,
  inFuelProgram: boolean | null,
  offProgramPenalty: number,
): number {
  const offProgram = inFuelProgram === false ? offProgramPenalty + OFF_PROGRAM_TIE_BREAK_USD : 0;
  return effective + (isStale ? STALE_PRICE_PENALTY_USD : 0) + offProgram;
}

/**
 * Checks the input, applies the fleet defaults and puts the stations in route order.
 *
 * Each station is priced on the treatment's basis (effectivePrice: the net price less the credited
 * state tax under `ifta`); the optimizer minimizes that plus the stale-price penalty and the fuel
 * program's off-program penalty and tie-break (objectivePrice), which the shown prices never include.
 *
 * Stations outside [0, routeMiles] are left out: the truck never passes them. Nonsense inputs
 * (a zero tank, a discount above the price) throw a RangeError, because they are a caller's bug and
 * the API layer validates requests before they get here.
 *
 * @example
 * const problem = prepareFuelProblem({ routeMiles: 900, destinationName: 'Denver', stations,
 *   tankGallons: 300, mpg: 6.5, currentFuelGallons: 150, minArrivalGallons: 60 });
 */
export function prepareFuelProblem(input: FuelPlanInput): FuelProblem {
  const { tankGallons } = input;
  requireWithin('tankGallons', tankGallons, Number.MIN_VALUE);
  requireWithin('mpg', input.mpg, Number.MIN_VALUE);
  requireWithin('routeMiles', input.routeMiles, 0);
  requireWithin('currentFuelGallons', input.currentFuelGallons, 0, tankGallons);
  requireWithin('minArrivalGallons', input.minArrivalGallons, 0, tankGallons);
  const reserveGallons = input.reserveGallons ?? DEFAULT_RESERVE_FRACTION * tankGallons;
  requireWithin('reserveGallons', reserveGallons, 0, tankGallons);
  const minPurchaseGallons = input.minPurchaseGallons ?? DEFAULT_MIN_PURCHASE_GALLONS;
  requireWithin('minPurchaseGallons', minPurchaseGallons, 0);
  const taxTreatment = input.taxTreatment ?? DEFAULT_FUEL_TAX_TREATMENT;

  const stations: RouteStation[] = [];
  for (const station of input.stations) {
    const invalid = invalidStationField(station);
    if (invalid) {
      throw new RangeError(
        `station ${station.id}: ${invalid} out of range (discount within [0, price], state tax within [0, net price], others finite, ≥ 0)`,
      );
    }
    if (station.milesAlongRoute < 0 || station.milesAlongRoute > input.routeMiles) continue;
    // To the tenth of a cent prices carry: 3.53 − 0.13 is 3.3999999999999995 in floating point,
    // and the net and effective costs of one purchase must round alike.
    const netPrice = Math.round((station.pricePerGallon - station.discountPerGallon) * 1000) / 1000;
    const stateTax = station.stateTax ?? null;
    const effective = effectivePrice(netPrice, stateTax, taxTreatment);
    const offProgramPenalty = station.offProgramPenalty ?? 0;
    // Named fields, not a spread: one object shape for every station keeps the hot loops monomorphic.
    stations.push({
      id: station.id,
      name: station.name,
      chain: station.chain,
      milesAlongRoute: station.milesAlongRoute,
      detourMiles: station.detourMiles,
      pricePerGallon: station.pricePerGallon,
      discountPerGallon: station.discountPerGallon,
      isStale: station.isStale,
      state: station.state ?? null,
      stateTax,
      netPrice,
      effectivePrice: effective,
      inFuelProgram: station.inFuelProgram ?? null,
      offProgramPenalty,
      objectivePrice: objectivePrice(
        effective,
        station.isStale,
        station.inFuelProgram ?? null,
        offProgramPenalty,
      ),
    });
  }
  // Ties on the route keep the caller's order (Array.prototype.sort is stable), so plans are repeatable.
  stations.sort((a, b) => a.milesAlongRoute - b.milesAlongRoute);

  return {
    routeMiles: input.routeMiles,
    destinationName: input.destinationName,
    stations,
    tankGallons,
    mpg: input.mpg,
    currentFuelGallons: input.currentFuelGallons,
    minArrivalGallons: input.minArrivalGallons,
    reserveGallons,
    arrivalRequiredGallons: Math.max(input.minArrivalGallons, reserveGallons),
    minPurchaseGallons,
    taxTreatment,
  };
}
