import type { CandidateStation } from '../fuel-plan/index.ts';
import type { FuelTaxTable } from '../fuel-tax/state-diesel-tax.ts';
import { type ChainDiscounts, isPriceStale, type Station, stationPrice } from './station.ts';

/** A station near a route, placed along it (the corridor search's answer). */
export interface StationOnRoute {
  station: Station;
  milesAlongRoute: number;
  /** One way, from the road to the station. */
  offRouteMiles: number;
}

/**
 * Corridor stations as the fuel plan sees them: priced for the fleet, with the state tax in their
 * posted price as the table has it now, staleness judged now.
 */
export function fuelCandidates(
  corridor: readonly StationOnRoute[],
  discounts: ChainDiscounts,
  taxes: FuelTaxTable,
  nowMs: number,
): CandidateStation[] {
  return corridor.map(({ station, milesAlongRoute, offRouteMiles }) => {
    const price = stationPrice(station, discounts);
    return {
      id: station.id,
      name: station.name,
      chain: station.chain,
      milesAlongRoute,
      detourMiles: offRouteMiles,
      pricePerGallon: price.price,
      discountPerGallon: price.discount,
      isStale: isPriceStale(station, nowMs),
      state: station.state,
      stateTax: taxes.rateOf(station.state, nowMs),
    };
  });
}
