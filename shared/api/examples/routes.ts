import polyline from '@mapbox/polyline';
import { savingsAgainstBaseline } from '../../domain/fuel-plan/savings.ts';
import type { BaselineOutcome } from '../../domain/fuel-plan/types.ts';
import { ApiError } from '../../platform/errors.ts';
import type { truckRouteRoutes } from '../routes/routes.ts';
import { createRouteBody } from '../schemas/routes.ts';
import { baselineResource, savingsResource } from '../serializers/routes.ts';
import { type ExamplesFor, rejected } from './example.ts';
import {
  CATALOG_VERSION,
  DESTINATION,
  IDS,
  NOW,
  ORIGIN,
  POSITION,
  RECORDED_AT,
  STATIONS,
  VEHICLE,
} from './fixtures.ts';
import { oklahomaCity } from './stations.ts';

/** TRUCK-042's road from south of Gainesville up I-35 to Oklahoma City, then I-40 west to Amarillo. */
export const ROUTE_POLYLINE = polyline.encode([
  [POSITION.latitude, POSITION.longitude],
  [STATIONS.lovesGainesville.latitude, STATIONS.lovesGainesville.longitude],
  [STATIONS.pilotArdmore.latitude, STATIONS.pilotArdmore.longitude],
  [STATIONS.taOklahomaCity.latitude, STATIONS.taOklahomaCity.longitude],
  [STATIONS.lovesElReno.latitude, STATIONS.lovesElReno.longitude],
  [DESTINATION.latitude, DESTINATION.longitude],
]);

const { id, name, chain, latitude, longitude, address } = STATIONS.taOklahomaCity;

/** Filling to full below a quarter on the same stations: one full fill, arriving with most of a tank. */
const BASELINE: BaselineOutcome = {
  strategy: 'fill_to_full_below_quarter',
  cost: 619.64,
  gallons: 182.3,
  stopCount: 1,
  arrivalFuelGallons: 213.9,
  feasible: true,
};

const route = {
  id: IDS.route,
  created_at: NOW,
  vehicle_id: IDS.vehicle,
  origin: { ...POSITION, name: null },
  destination: DESTINATION,
  distance_miles: 413.5,
  duration_minutes: 402,
  polyline: ROUTE_POLYLINE,
  legs: [
    { road: 'I-35', from: 'Valley View', to: 'Oklahoma City', miles: 154.1 },
    { road: 'I-40', from: 'Oklahoma City', to: 'Amarillo', miles: 259.4 },
  ],
  fuel: {
    tank_size_gallons: VEHICLE.tank_size_gallons,
    estimated_mpg: VEHICLE.estimated_mpg,
    start_fuel_percent: 38.5,
    fuel_level_source: 'reported',
    fuel_level_as_of: RECORDED_AT,
    min_arrival_fuel_percent: 15,
    reserve_gallons: 24,
    min_purchase_gallons: 20,
  },
  plan: {
    status: 'ok',
    reason: `One stop: 20 gal at ${name} reaches ${DESTINATION.name} with 21.5% of the tank.`,
    stops: [
      {
        station: { id, name, chain, latitude, longitude, address },
        miles_along_route: 154.1,
        detour_miles: 0.8,
        gallons_to_buy: 20,
        price_usd_per_gallon: oklahomaCity.diesel_price_usd_per_gallon,
        discount_usd_per_gallon: oklahomaCity.discount_usd_per_gallon,
        net_price_usd_per_gallon: oklahomaCity.net_price_usd_per_gallon,
        price_is_stale: false,
        cost_usd: 65.38,
        reason: `Cheapest net diesel before the I-40 stretch ($${oklahomaCity.net_price_usd_per_gallon}); 20 gal keeps 15% for ${DESTINATION.name}.`,
      },
    ],
    total_cost_usd: 65.38,
    total_gallons: 20,
    arrival_fuel_gallons: 51.6,
    arrival_fuel_percent: 21.5,
  },
  baseline: baselineResource(BASELINE, VEHICLE.tank_size_gallons),
  // The serializer's own comparison, so the example's sum is the API's.
  savings: savingsResource(
    savingsAgainstBaseline(
      { stations: [{ netPrice: oklahomaCity.net_price_usd_per_gallon }] },
      { cost: 65.38, arrivalFuelGallons: 51.6 },
      BASELINE,
    ),
  ),
  candidate_station_count: 37,
  catalog_version: CATALOG_VERSION,
  routing_engine: { name: 'embedded', data_version: '2025.1.0' },
};

export const routeExamples = {
  createRoute: {
    request: {
      body: { vehicle_id: IDS.vehicle, destination: DESTINATION, min_arrival_fuel_percent: 15 },
    },
    responses: { 201: route },
    problem: rejected('body', createRouteBody, {
      origin: { latitude: ORIGIN.latitude, longitude: ORIGIN.longitude },
      destination: DESTINATION,
      tank_size_gallons: VEHICLE.tank_size_gallons,
    }),
  },
  getRoute: {
    request: { params: { id: IDS.route } },
    responses: { 200: route },
    problem: new ApiError('resource_not_found', `Route ${IDS.route} was not found in this fleet.`),
  },
} satisfies ExamplesFor<typeof truckRouteRoutes>;
