import type { CandidateStation } from '#shared/fuel-plan/domain/index.ts';
import {
  type FuelProgram,
  inFuelProgram,
  offProgramPenalty,
  programDiscounts,
} from '#shared/fuel-programs/domain/program.ts';
import type { FuelTaxTable } from '#shared/fuel-tax/domain/state-diesel-tax.ts';
import { isPriceStale, type Station, stationPrice } from './station.ts';

/** A station near a route, placed along it (the corridor search's answer). */
export interface StationOnRoute {
  station: Station;
  milesAlongRoute: number;
  /** One way, from the road to the station. */
  offRouteMiles: number;
}

/**
 * Corridor stations as the fuel plan sees them: priced with the fleet's card, with the state tax in
 * their posted price as the table has it now, staleness judged now, and where the fleet's fuel
 * program stands at each (accepted or not, the penalty a `preferred` program puts off it). A
 * `required` program's refused stations stay in: planWithinProgram leaves them out, and needs them
 * to tell "no accepted station in range" from "no station in range".
 */
export function fuelCandidates(
  corridor: readonly StationOnRoute[],
  program: FuelProgram,
  taxes: FuelTaxTable,
  nowMs: number,
): CandidateStation[] {
  const discounts = programDiscounts(program);
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
      inFuelProgram: inFuelProgram(program, station.chain),
      offProgramPenalty: offProgramPenalty(program, station.chain),
    };
  });
}
