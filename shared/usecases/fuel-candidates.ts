import type { CandidateStation } from '../domain/fuel-plan/index.ts';
import { type ChainDiscounts, isPriceStale, stationPrice } from '../domain/stations/station.ts';
import type { CorridorStation } from '../geo/corridor.ts';

/** Corridor stations as the fuel plan sees them: priced for the fleet, staleness judged now. */
export function fuelCandidates(
  corridor: readonly CorridorStation[],
  discounts: ChainDiscounts,
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
    };
  });
}
