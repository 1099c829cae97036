import { DEFAULT_MIN_PURCHASE_GALLONS, DEFAULT_RESERVE_FRACTION, STALE_PRICE_PENALTY_USD } from './policy.ts';
import type { FuelPlanInput, FuelProblem, RouteStation } from './types.ts';

function requireFinite(name: string, value: number, min: number, max = Number.POSITIVE_INFINITY): void {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a finite number in [${min}, ${max}], got ${value}`);
  }
}

/**
 * Checks the input, applies the fleet defaults and puts the stations in route order.
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
  requireFinite('tankGallons', tankGallons, Number.MIN_VALUE);
  requireFinite('mpg', input.mpg, Number.MIN_VALUE);
  requireFinite('routeMiles', input.routeMiles, 0);
  requireFinite('currentFuelGallons', input.currentFuelGallons, 0, tankGallons);
  requireFinite('minArrivalGallons', input.minArrivalGallons, 0, tankGallons);
  const reserveGallons = input.reserveGallons ?? DEFAULT_RESERVE_FRACTION * tankGallons;
  requireFinite('reserveGallons', reserveGallons, 0, tankGallons);
  const minPurchaseGallons = input.minPurchaseGallons ?? DEFAULT_MIN_PURCHASE_GALLONS;
  requireFinite('minPurchaseGallons', minPurchaseGallons, 0);

  const stations: RouteStation[] = [];
  for (const station of input.stations) {
    requireFinite(`station ${station.id} milesAlongRoute`, station.milesAlongRoute, Number.NEGATIVE_INFINITY);
    requireFinite(`station ${station.id} detourMiles`, station.detourMiles, 0);
    requireFinite(`station ${station.id} pricePerGallon`, station.pricePerGallon, 0);
    requireFinite(
      `station ${station.id} discountPerGallon`,
      station.discountPerGallon,
      0,
      station.pricePerGallon,
    );
    if (station.milesAlongRoute < 0 || station.milesAlongRoute > input.routeMiles) continue;
    const netPrice = station.pricePerGallon - station.discountPerGallon;
    stations.push({
      ...station,
      netPrice,
      objectivePrice: netPrice + (station.isStale ? STALE_PRICE_PENALTY_USD : 0),
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
  };
}
