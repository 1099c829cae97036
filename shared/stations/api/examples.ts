import { type ExamplesFor, rejected } from '#shared/api/example.ts';
import { CATALOG_VERSION, ORIGIN, POSITION, STATIONS } from '#shared/api/example-fixtures.ts';
import { stationPrice } from '../domain/station.ts';
import type { stationOperations } from './operations.ts';
import { alongRouteBody, nearbyStationsQuery } from './schemas.ts';

const PRICED_AT = '2026-11-21T06:00:00.000000Z';

/**
 * A catalog station priced for the fleet by the API's own pricing (posted − chain discount = net).
 * The example fleet's card program (shared/fleets/api/examples.ts) accepts Love's, Pilot and TA: each is in it.
 */
function priced(
  station: (typeof STATIONS)[keyof typeof STATIONS],
  posted: number,
  discountCents: number,
  amenities: string[],
) {
  const price = stationPrice(
    { chain: station.chain, dieselPriceUsdPerGallon: posted },
    { [station.chain]: discountCents },
  );
  return {
    ...station,
    amenities,
    fuels: ['diesel', 'def'],
    diesel_price_usd_per_gallon: price.price,
    discount_usd_per_gallon: price.discount,
    net_price_usd_per_gallon: price.net,
    price_updated_at: PRICED_AT,
    price_is_stale: false,
    in_fuel_program: true,
  };
}

export const gainesville = priced(STATIONS.lovesGainesville, 3.629, 18, ['showers', 'parking', 'scales']);
export const ardmore = priced(STATIONS.pilotArdmore, 3.459, 21, ['showers', 'parking', 'scales', 'wifi']);
export const oklahomaCity = priced(STATIONS.taOklahomaCity, 3.419, 15, ['showers', 'parking', 'repair']);

export const stationExamples = {
  listNearbyStations: {
    request: {
      query: {
        latitude: String(POSITION.latitude),
        longitude: String(POSITION.longitude),
        radius_miles: '25',
        fuel: 'diesel',
        limit: '5',
      },
    },
    responses: {
      200: {
        data: [{ ...gainesville, distance_miles: 4.6 }],
        next_cursor: null,
        catalog_version: CATALOG_VERSION,
      },
    },
    problem: rejected('query', nearbyStationsQuery, { latitude: String(POSITION.latitude) }),
  },
  listStationsAlongRoute: {
    request: {
      body: {
        origin: { latitude: ORIGIN.latitude, longitude: ORIGIN.longitude },
        destination: {
          latitude: STATIONS.taOklahomaCity.latitude,
          longitude: STATIONS.taOklahomaCity.longitude,
        },
        corridor_width_miles: 2,
        max_results: 10,
        fuel: 'diesel',
        accepted_only: true,
      },
    },
    responses: {
      200: {
        data: [
          { ...gainesville, miles_along_route: 62.4, off_route_miles: 0.3, detour_miles: 0.6 },
          { ...ardmore, miles_along_route: 119.8, off_route_miles: 0.2, detour_miles: 0.4 },
          { ...oklahomaCity, miles_along_route: 208.1, off_route_miles: 0.4, detour_miles: 0.8 },
        ],
        next_cursor: null,
        route_distance_miles: 208.9,
        catalog_version: CATALOG_VERSION,
      },
    },
    problem: rejected('body', alongRouteBody, {
      origin: { latitude: ORIGIN.latitude, longitude: ORIGIN.longitude },
    }),
  },
} satisfies ExamplesFor<typeof stationOperations>;
