import {
  type ChainDiscounts,
  type FuelProgram,
  inFuelProgram,
  programDiscounts,
} from '#shared/fuel-programs/domain/program.ts';
import { roundCoordinate, roundToTenth } from '#shared/kernel/rounding.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { isPriceStale, type Station, stationPrice } from '../domain/station.ts';

/** A station as the acting fleet sees it: its card's discount, and whether its program accepts it. */
interface FleetView {
  program: FuelProgram;
  /** The program's discounts, derived once per answer (stationPrice looks them up by chain). */
  discounts: ChainDiscounts;
}

const fleetView = (program: FuelProgram): FleetView => ({ program, discounts: programDiscounts(program) });

export function stationResource(station: Station, fleet: FleetView, nowMs: number) {
  const price = stationPrice(station, fleet.discounts);
  return {
    id: station.id,
    name: station.name,
    chain: station.chain,
    latitude: roundCoordinate(station.latitude),
    longitude: roundCoordinate(station.longitude),
    address: station.address,
    state: station.state,
    amenities: station.amenities,
    fuels: station.fuels,
    diesel_price_usd_per_gallon: price.price,
    discount_usd_per_gallon: price.discount,
    net_price_usd_per_gallon: price.net,
    price_updated_at: formatTimestamp(station.priceUpdatedAtMs),
    price_is_stale: isPriceStale(station, nowMs),
    in_fuel_program: inFuelProgram(fleet.program, station.chain),
  };
}

/** GET /v1/stations: nearest first, one page (the radius and `limit` bound it). */
export function nearbyStationsResource(
  result: {
    stations: readonly { station: Station; distanceMiles: number }[];
    program: FuelProgram;
    catalogVersion: string;
  },
  nowMs: number,
) {
  const fleet = fleetView(result.program);
  return {
    data: result.stations.map(({ station, distanceMiles }) => ({
      ...stationResource(station, fleet, nowMs),
      distance_miles: roundToTenth(distanceMiles),
    })),
    next_cursor: null,
    catalog_version: result.catalogVersion,
  };
}

/** POST /v1/stations/along-route: in route order, with where each lies along and off the route. */
export function corridorStationsResource(
  result: {
    stations: readonly {
      station: Station;
      milesAlongRoute: number;
      offRouteMiles: number;
      detourMiles: number;
    }[];
    program: FuelProgram;
    routeMiles: number;
    catalogVersion: string;
  },
  nowMs: number,
) {
  const fleet = fleetView(result.program);
  return {
    data: result.stations.map((c) => ({
      ...stationResource(c.station, fleet, nowMs),
      miles_along_route: roundToTenth(c.milesAlongRoute),
      off_route_miles: roundToTenth(c.offRouteMiles),
      detour_miles: roundToTenth(c.detourMiles),
    })),
    next_cursor: null,
    route_distance_miles: roundToTenth(result.routeMiles),
    catalog_version: result.catalogVersion,
  };
}
