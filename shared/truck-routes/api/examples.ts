import polyline from '@mapbox/polyline';
import { type ExamplesFor, rejected } from '#shared/api/example.ts';
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
} from '#shared/api/example-fixtures.ts';
import { planCounterfactual, planSavings } from '#shared/fuel-plan/domain/savings.ts';
import { effectivePrice } from '#shared/fuel-tax/domain/effective-price.ts';
import { SHIPPED_FUEL_TAX_TABLE } from '#shared/fuel-tax/domain/state-diesel-tax.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { oklahomaCity } from '#shared/stations/api/examples.ts';
import type { truckRouteOperations } from './operations.ts';
import { createRouteBody } from './schemas.ts';
import { baselineResource, purchaseCounterfactualResource, savingsResource } from './serializers.ts';

/** TRUCK-042's road from south of Gainesville up I-35 to Oklahoma City, then I-40 west to Amarillo. */
export const ROUTE_POLYLINE = polyline.encode([
  [POSITION.latitude, POSITION.longitude],
  [STATIONS.lovesGainesville.latitude, STATIONS.lovesGainesville.longitude],
  [STATIONS.pilotArdmore.latitude, STATIONS.pilotArdmore.longitude],
  [STATIONS.taOklahomaCity.latitude, STATIONS.taOklahomaCity.longitude],
  [STATIONS.lovesElReno.latitude, STATIONS.lovesElReno.longitude],
  [DESTINATION.latitude, DESTINATION.longitude],
]);

const { id, name, chain, latitude, longitude, address, state } = STATIONS.taOklahomaCity;

/** Oklahoma's diesel tax, credited on the fleet's IFTA return. */
const STATE_TAX = SHIPPED_FUEL_TAX_TABLE.rateOf(state, Date.parse(NOW)) ?? 0;
const EFFECTIVE_PRICE = effectivePrice(oklahomaCity.net_price_usd_per_gallon, STATE_TAX, 'ifta');

/**
 * The one purchase, and what it costs without our advice: the mean price of the 9 stations the
 * truck's fuel reached from its position (the domain's own sums, so the example's figures are the API's).
 */
const STOP = {
  gallons: 20,
  effectiveCost: Math.round(20 * EFFECTIVE_PRICE * 100) / 100,
  counterfactual: { pumpPrice: 3.301, netPrice: 3.196, stationCount: 9 },
};
const COUNTERFACTUAL = planCounterfactual([STOP]);
/** The mean effective price of the 37 stations on the corridor, after their IFTA credits. */
const MEAN_STATION_PRICE = 3.21;

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
        state,
        state_tax_usd_per_gallon: STATE_TAX,
        effective_price_usd_per_gallon: EFFECTIVE_PRICE,
        counterfactual: purchaseCounterfactualResource(STOP.counterfactual),
        price_is_stale: false,
        cost_usd: 65.38,
        effective_cost_usd: STOP.effectiveCost,
        // TA is on the fleet's fuel card program.
        in_fuel_program: true,
        reason:
          `Cheapest diesel in the next 259 miles: $${EFFECTIVE_PRICE.toFixed(2)} after tax credit ` +
          `($${oklahomaCity.diesel_price_usd_per_gallon.toFixed(2)} − $${oklahomaCity.discount_usd_per_gallon.toFixed(2)} − $${STATE_TAX.toFixed(2)} Oklahoma tax), ` +
          `0.4 miles off the route. Buy 20 gal (the minimum purchase) to reach ${DESTINATION.name} with 22% in the tank.`,
      },
    ],
    fuel_program_shortfall: null,
    fuel_tax_treatment: 'ifta' as const,
    total_cost_usd: 65.38,
    total_gallons: 20,
    arrival_fuel_gallons: 51.6,
    arrival_fuel_percent: 21.5,
  },
  // The serializer's own comparison, so the example's sum is the API's.
  baseline: baselineResource(
    { counterfactual: COUNTERFACTUAL, taxTreatment: 'ifta', stops: [STOP], arrivalFuelGallons: 51.6 },
    VEHICLE.tank_size_gallons,
  ),
  savings: savingsResource(planSavings([STOP], COUNTERFACTUAL, 'ifta'), MEAN_STATION_PRICE),
  candidate_station_count: 37,
  catalog_version: CATALOG_VERSION,
  routing_engine: { name: 'embedded', data_version: '2025.1.0' },
  // The vehicle's own height and length, the standard truck's for what neither it nor its fleet set.
  truck_profile: {
    height_inches: 162,
    width_inches: 102,
    length_feet: 72,
    gross_weight_lbs: 80_000,
    axle_count: 5,
    hazardous_cargo: [],
  },
  truck_profile_sources: {
    height_inches: 'vehicle',
    width_inches: 'standard',
    length_feet: 'vehicle',
    gross_weight_lbs: 'standard',
    axle_count: 'standard',
    hazardous_cargo: 'standard',
  },
};

export const truckRouteExamples = {
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
} satisfies ExamplesFor<typeof truckRouteOperations>;
