import { roundCoordinate, roundToTenth } from '../../domain/rounding.ts';
import {
  type ChainDiscounts,
  isPriceStale,
  type Station,
  stationPrice,
} from '../../domain/stations/station.ts';
import { formatTimestamp } from '../../platform/time.ts';

export function stationResource(station: Station, discounts: ChainDiscounts, nowMs: number) {
  const price = stationPrice(station, discounts);
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
  };
}

/** GET /v1/stations: nearest first, one page (the radius and `limit` bound it). */
export function nearbyStationsResource(
  result: {
    stations: readonly { station: Station; distanceMiles: number }[];
    discounts: ChainDiscounts;
    catalogVersion: string;
  },
  nowMs: number,
) {
  return {
    data: result.stations.map(({ station, distanceMiles }) => ({
      ...stationResource(station, result.discounts, nowMs),
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
    discounts: ChainDiscounts;
    routeMiles: number;
    catalogVersion: string;
  },
  nowMs: number,
) {
  return {
    data: result.stations.map((c) => ({
      ...stationResource(c.station, result.discounts, nowMs),
      miles_along_route: roundToTenth(c.milesAlongRoute),
      off_route_miles: roundToTenth(c.offRouteMiles),
      detour_miles: roundToTenth(c.detourMiles),
    })),
    next_cursor: null,
    route_distance_miles: roundToTenth(result.routeMiles),
    catalog_version: result.catalogVersion,
  };
}
