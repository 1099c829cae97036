import polyline from '@mapbox/polyline';
import { type ExamplesFor, exampleId, rejected } from '#shared/api/example.ts';
import {
  DESTINATION,
  GUIDANCE_STARTED_AT,
  IDS,
  NOW,
  ORIGIN,
  STATIONS,
  TRIP_CREATED_AT,
  TRIP_IDS,
  VEHICLE,
} from '#shared/api/example-fixtures.ts';
import { resolveTruckProfile, UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import { counterfactualOver, planCounterfactual, planSavings } from '#shared/fuel-plan/domain/index.ts';
import { effectivePrice } from '#shared/fuel-tax/domain/effective-price.ts';
import { SHIPPED_FUEL_TAX_TABLE } from '#shared/fuel-tax/domain/state-diesel-tax.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { ardmore, gainesville, oklahomaCity } from '#shared/stations/api/examples.ts';
import { truckRouteExamples } from '#shared/truck-routes/api/examples.ts';
import { baselineResource, savingsResource } from '#shared/truck-routes/api/serializers.ts';
import {
  checkDeletable,
  checkOptimizable,
  checkVisitable,
  recordVisit,
  type TripChange,
  type TripRefusal,
  transition,
} from '../domain/lifecycle.ts';
import { editStops } from '../domain/stop-edits.ts';
import type { Trip, TripStop } from '../domain/trip.ts';
import type { tripOperations } from './operations.ts';
import { createTripBody, listTripsQuery } from './schemas.ts';
import { tripResource, tripStopResource } from './serializers.ts';

// The trip's responses are the serializer's own output (tripResource) from a domain Trip, moved
// through its states by the domain's own lifecycle, so they cannot drift from what the API answers.

const ms = Date.parse;

/** The cross-dock at I-40 exit 142 (Council Rd), where TRUCK-042 picks up more freight. */
const PICKUP = { latitude: 35.46339, longitude: -97.65562, name: 'Oklahoma City cross-dock (I-40 exit 142)' };

/** Dallas yard up I-35 to Oklahoma City, then I-40 west past the cross-dock to Amarillo. */
const TRIP_POLYLINE = polyline.encode([
  [ORIGIN.latitude, ORIGIN.longitude],
  [STATIONS.lovesGainesville.latitude, STATIONS.lovesGainesville.longitude],
  [STATIONS.pilotArdmore.latitude, STATIONS.pilotArdmore.longitude],
  [PICKUP.latitude, PICKUP.longitude],
  [STATIONS.taOklahomaCity.latitude, STATIONS.taOklahomaCity.longitude],
  [STATIONS.lovesElReno.latitude, STATIONS.lovesElReno.longitude],
  [DESTINATION.latitude, DESTINATION.longitude],
]);

// The route example's stop at TA Oklahoma City (station and prices), planned here from the Dallas
// yard with 27% of the tank: 208.1 miles in (as the along-route stations example measures it from
// the yard), 40 gal to arrive with 15%.
const routeStop = (() => {
  const [stop] = truckRouteExamples.createRoute.responses[201].plan.stops;
  if (!stop) throw new Error('The route example plans no stop');
  return stop;
})();
const START_FUEL_PERCENT = 27;
const GALLONS = 40;
const PLAN_COST = 130.76;

/**
 * What the 40 gal cost without our advice: the mean price of the stations the yard's fuel reaches
 * (Gainesville TX, Ardmore OK, the TA itself), each net of its state's tax credited on the IFTA return.
 */
const COUNTERFACTUAL = counterfactualOver(
  [
    { station: gainesville, state: STATIONS.lovesGainesville.state },
    { station: ardmore, state: STATIONS.pilotArdmore.state },
    { station: oklahomaCity, state: STATIONS.taOklahomaCity.state },
  ].map(({ station, state }) => {
    const stateTax = SHIPPED_FUEL_TAX_TABLE.rateOf(state, ms(TRIP_CREATED_AT));
    return {
      pricePerGallon: station.diesel_price_usd_per_gallon,
      stateTax,
      effectivePrice: effectivePrice(station.net_price_usd_per_gallon, stateTax, 'ifta'),
    };
  }),
  'ifta',
);
const PURCHASE = {
  gallons: GALLONS,
  effectiveCost: Math.round(GALLONS * routeStop.effective_price_usd_per_gallon * 100) / 100,
  counterfactual: COUNTERFACTUAL,
};
const PLAN_COUNTERFACTUAL = planCounterfactual([PURCHASE]);

const pickupStop: TripStop = {
  id: TRIP_IDS.pickupStop,
  type: 'pickup',
  name: PICKUP.name,
  latitude: PICKUP.latitude,
  longitude: PICKUP.longitude,
  plannedArrivalAtMs: ms('2026-11-22T00:15:00Z'),
  arrivedAtMs: null,
  departedAtMs: null,
  fuel: null,
};

const fuelStop: TripStop = {
  id: TRIP_IDS.fuelStop,
  type: 'fuel',
  name: routeStop.station.name,
  latitude: routeStop.station.latitude,
  longitude: routeStop.station.longitude,
  plannedArrivalAtMs: null,
  arrivedAtMs: null,
  departedAtMs: null,
  fuel: {
    station: routeStop.station,
    milesAlongRoute: 208.1,
    detourMiles: routeStop.detour_miles,
    gallonsToBuy: GALLONS,
    price: routeStop.price_usd_per_gallon,
    discount: routeStop.discount_usd_per_gallon,
    netPrice: routeStop.net_price_usd_per_gallon,
    state: routeStop.state,
    stateTax: routeStop.state_tax_usd_per_gallon,
    effectivePrice: routeStop.effective_price_usd_per_gallon,
    counterfactual: COUNTERFACTUAL,
    priceIsStale: routeStop.price_is_stale,
    inFuelProgram: routeStop.in_fuel_program,
    reason:
      `Cheapest diesel in the next 259 miles: $${routeStop.effective_price_usd_per_gallon.toFixed(2)} after tax credit ` +
      `($${routeStop.price_usd_per_gallon.toFixed(2)} − $${routeStop.discount_usd_per_gallon.toFixed(2)} − ` +
      `$${(routeStop.state_tax_usd_per_gallon ?? 0).toFixed(2)} Oklahoma tax). Buy ${GALLONS} gal to reach ${DESTINATION.name} with 15% in the tank.`,
  },
};

/** As POST /v1/trips stores it with auto_optimize: routed, fuel stop planned, stops in route order. */
const planned: Trip = {
  id: TRIP_IDS.trip,
  fleetId: IDS.fleet,
  vehicleId: IDS.vehicle,
  externalRef: VEHICLE.external_ref,
  reference: 'LOAD-88213',
  status: 'planned',
  autoOptimize: true,
  origin: ORIGIN,
  destination: DESTINATION,
  plannedStartAtMs: ms('2026-11-21T19:30:00Z'),
  plannedEndAtMs: ms('2026-11-22T04:00:00Z'),
  startedAtMs: null,
  completedAtMs: null,
  cancelledAtMs: null,
  cancelReason: null,
  startFuelPercent: START_FUEL_PERCENT,
  minArrivalFuelPercent: 15,
  // The cross-dock (exit 142) comes just before the TA (exit 140) on I-40 westbound.
  stops: [pickupStop, fuelStop],
  route: {
    distanceMiles: 467.5,
    durationMinutes: 456,
    polyline: TRIP_POLYLINE,
    // The vehicle set nothing; its fleet hauls heavy on six axles.
    truck: resolveTruckProfile(null, { ...UNSET_TRUCK_PROFILE, grossWeightLbs: 97_000, axleCount: 6 }),
  },
  fuelPlan: {
    status: 'ok',
    fuelProgramShortfall: null,
    reason: `One stop: ${GALLONS} gal at ${routeStop.station.name} reaches ${DESTINATION.name} with 15% of the tank.`,
    startFuelPercent: START_FUEL_PERCENT,
    fuelLevelSource: 'reported',
    fuelLevelAsOfMs: ms(TRIP_CREATED_AT),
    minArrivalFuelPercent: 15,
    totalGallons: GALLONS,
    totalCostUsd: PLAN_COST,
    projectedArrivalFuelPercent: 15,
    taxTreatment: 'ifta',
    // As the route planner words them (baselineResource, savingsResource), like the trip use case.
    baseline: baselineResource(
      {
        counterfactual: PLAN_COUNTERFACTUAL,
        taxTreatment: 'ifta',
        stops: [PURCHASE],
        arrivalFuelGallons: 0.15 * VEHICLE.tank_size_gallons,
      },
      VEHICLE.tank_size_gallons,
    ),
    // Arrival fuel is valued at the route's mean effective price (the route example's corridor).
    savings: savingsResource(
      planSavings([PURCHASE], PLAN_COUNTERFACTUAL, 'ifta'),
      truckRouteExamples.createRoute.responses[201].savings?.fuel_value_usd_per_gallon ?? 0,
    ),
    optimizedAtMs: ms(TRIP_CREATED_AT),
  },
  guidanceId: null,
  outbox: null,
  createdAtMs: ms(TRIP_CREATED_AT),
  updatedAtMs: ms(TRIP_CREATED_AT),
  version: 1,
};

function changed(change: TripChange): Trip {
  if (!change.ok) throw new Error(`The example trip was refused: ${change.detail}`);
  return change.trip;
}

/** The problem a refusal of the trip state machine answers with, as the use case raises it. */
function refused(refusal: TripRefusal | TripChange | null): ApiError {
  if (refusal === null || refusal.ok) throw new Error('An example meant to be refused was accepted');
  return new ApiError(refusal.code, refusal.detail, { hint: refusal.hint });
}

/** A PATCH an hour before the start: the start and the pickup slip by half an hour. */
const UPDATED_AT = ms('2026-11-21T18:34:51.660000Z');
const edited: Trip = {
  ...planned,
  plannedStartAtMs: ms('2026-11-21T20:00:00Z'),
  stops: [{ ...pickupStop, plannedArrivalAtMs: ms('2026-11-22T00:45:00Z') }, fuelStop],
  updatedAtMs: UPDATED_AT,
};

/** POST /optimize after the edit: the fuel stop is planned again, under a new id. */
const OPTIMIZED_AT = '2026-11-21T18:52:07.119000Z';
const optimized: Trip = {
  ...edited,
  stops: [
    edited.stops[0] as TripStop,
    { ...fuelStop, id: exampleId('tripStop', OPTIMIZED_AT, 'load-88213-fuel-2') },
  ],
  fuelPlan: planned.fuelPlan && {
    ...planned.fuelPlan,
    fuelLevelAsOfMs: ms(OPTIMIZED_AT),
    optimizedAtMs: ms(OPTIMIZED_AT),
  },
  updatedAtMs: ms(OPTIMIZED_AT),
};

/** Started when its guidance opened: the guidance session of the guidance examples. */
const active = changed(transition(edited, 'start', ms(GUIDANCE_STARTED_AT), { guidanceId: IDS.guidance }));

/** Fuelled at the TA, picked up at the cross-dock, completed at the Amarillo DC. */
const visited = [
  [TRIP_IDS.pickupStop, 'arrive', '2026-11-22T00:52:13.081000Z'],
  [TRIP_IDS.pickupStop, 'depart', '2026-11-22T01:31:40.514000Z'],
  [TRIP_IDS.fuelStop, 'arrive', '2026-11-22T01:36:02.227000Z'],
  [TRIP_IDS.fuelStop, 'depart', '2026-11-22T01:58:19.903000Z'],
] as const;
const completed = changed(
  transition(
    visited.reduce(
      (trip, [stopId, visit, at]) => recordVisit(trip, stopId, visit, ms(at), ms(at)) ?? trip,
      active,
    ),
    'complete',
    ms('2026-11-22T05:47:26.335000Z'),
  ),
);

const cancelled = changed(
  transition(active, 'cancel', ms(NOW), { reason: 'Load rescheduled by the shipper' }),
);

const byTrip = { id: TRIP_IDS.trip };
const byStop = { id: TRIP_IDS.trip, stopId: TRIP_IDS.pickupStop };

/** Sending the fuel stop back with more gallons: fuel stops are the system's (editStops refuses it). */
const fuelStopEdited = (() => {
  const edit = editStops(
    planned,
    [{ type: 'fuel', id: TRIP_IDS.fuelStop, members: { fuel: { gallons_to_buy: 60 } } }],
    () => TRIP_IDS.pickupStop,
    (stop) => tripStopResource(stop, 0),
  );
  if (edit.ok) throw new Error('An example fuel stop edit was accepted');
  return new ApiError(edit.code, `stops.${edit.field.split('.')[1]}: ${edit.message}.`, {
    extensions: { errors: [{ field: edit.field, message: edit.message }] },
  });
})();

export const tripExamples = {
  createTrip: {
    request: {
      body: {
        vehicle_id: IDS.vehicle,
        reference: 'LOAD-88213',
        origin: ORIGIN,
        destination: DESTINATION,
        planned_start_at: '2026-11-21T19:30:00Z',
        planned_end_at: '2026-11-22T04:00:00Z',
        stops: [{ type: 'pickup', ...PICKUP, planned_arrival_at: '2026-11-22T00:15:00Z' }],
        auto_optimize: true,
        start_fuel_percent: START_FUEL_PERCENT,
        min_arrival_fuel_percent: 15,
      },
    },
    responses: { 201: tripResource(planned) },
    problem: rejected('body', createTripBody, {
      vehicle_id: IDS.vehicle,
      external_ref: VEHICLE.external_ref,
      origin: ORIGIN,
      destination: DESTINATION,
      planned_start_at: '2026-11-21T19:30:00Z',
    }),
  },
  listTrips: {
    request: {
      query: { status: 'planned', vehicle_id: IDS.vehicle, from: '2026-11-21T00:00:00Z', limit: '25' },
    },
    responses: { 200: { data: [tripResource(planned, { polyline: false })], next_cursor: null } },
    problem: rejected('query', listTripsQuery, { include: 'stops' }),
  },
  getTrip: {
    request: { params: byTrip },
    responses: { 200: tripResource(active) },
    problem: new ApiError('resource_not_found', `Trip ${TRIP_IDS.trip} was not found in this fleet.`),
  },
  updateTrip: {
    request: {
      params: byTrip,
      body: {
        planned_start_at: '2026-11-21T20:00:00Z',
        stops: [
          {
            id: TRIP_IDS.pickupStop,
            type: 'pickup',
            ...PICKUP,
            planned_arrival_at: '2026-11-22T00:45:00Z',
          },
        ],
      },
    },
    responses: { 200: tripResource(edited) },
    problem: fuelStopEdited,
  },
  deleteTrip: {
    request: { params: byTrip },
    problem: refused(checkDeletable(active)),
  },
  startTrip: {
    request: { params: byTrip },
    responses: { 200: tripResource(active) },
    problem: new ApiError(
      'resource_conflict',
      `Vehicle ${IDS.vehicle} already has an active trip, ${TRIP_IDS.otherTrip}.`,
      { hint: `complete or cancel trip ${TRIP_IDS.otherTrip} first` },
    ),
  },
  completeTrip: {
    request: { params: byTrip },
    responses: { 200: tripResource(completed) },
    problem: refused(transition(edited, 'complete', ms(NOW))),
  },
  cancelTrip: {
    request: { params: byTrip, body: { reason: 'Load rescheduled by the shipper' } },
    responses: { 200: tripResource(cancelled) },
    problem: refused(transition(completed, 'cancel', ms(NOW))),
  },
  optimizeTrip: {
    request: { params: byTrip },
    responses: { 200: tripResource(optimized) },
    problem: refused(checkOptimizable(completed)),
  },
  arriveAtTripStop: {
    request: { params: byStop },
    problem: refused(checkVisitable(edited)),
  },
  departTripStop: {
    request: { params: byStop },
    problem: refused(checkVisitable(completed)),
  },
} satisfies ExamplesFor<typeof tripOperations>;
