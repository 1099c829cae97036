import { type ExamplesFor, rejected } from '#shared/api/example.ts';
import {
  DESTINATION,
  GUIDANCE_STARTED_AT,
  IDS,
  NOW,
  POSITION,
  RECORDED_AT,
  STATIONS,
  VEHICLE,
} from '#shared/api/example-fixtures.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { oklahomaCity } from '#shared/stations/api/examples.ts';
import { truckRouteExamples } from '#shared/truck-routes/api/examples.ts';
import type { guidanceOperations } from './operations.ts';
import { startGuidanceBody } from './schemas.ts';

const { id, name, chain, latitude, longitude, address, state } = STATIONS.taOklahomaCity;
/** The route example's stop, priced the same way (Oklahoma's tax credited on the IFTA return). */
const routeStop = (() => {
  const [stop] = truckRouteExamples.createRoute.responses[201].plan.stops;
  if (!stop) throw new Error('The route example plans no stop');
  return stop;
})();
const PLANNED_AT = '2026-11-21T21:48:03.212000Z';

const session = {
  id: IDS.guidance,
  vehicle_id: IDS.vehicle,
  status: 'active',
  phase: 'stop_recommended',
  destination: DESTINATION,
  min_arrival_fuel_percent: 15,
  stops: [
    {
      id: IDS.guidanceStop,
      station: { id, name, chain, latitude, longitude, address, state },
      miles_ahead: 154.1,
      detour_miles: 0.8,
      gallons_to_buy: 20,
      price_usd_per_gallon: oklahomaCity.diesel_price_usd_per_gallon,
      discount_usd_per_gallon: oklahomaCity.discount_usd_per_gallon,
      net_price_usd_per_gallon: oklahomaCity.net_price_usd_per_gallon,
      state_tax_usd_per_gallon: routeStop.state_tax_usd_per_gallon,
      effective_price_usd_per_gallon: routeStop.effective_price_usd_per_gallon,
      fuel_tax_treatment: 'ifta',
      price_is_stale: false,
      in_fuel_program: routeStop.in_fuel_program,
      reason: routeStop.reason,
      state: 'recommended',
      recommended_at: PLANNED_AT,
      acknowledged_at: null,
    },
  ],
  skipped_stops: [
    {
      stop_id: IDS.skippedStop,
      station_id: STATIONS.lovesGainesville.id,
      name: STATIONS.lovesGainesville.name,
      reason: 'Lot full',
      skipped_at: '2026-11-21T21:48:02.904000Z',
    },
  ],
  plan_reason: `One stop: 20 gal at ${name} reaches ${DESTINATION.name} with 21.5% of the tank.`,
  plan_status: 'ok',
  fuel_program_shortfall: null,
  remaining_miles: 413.5,
  projected_arrival_fuel_percent: 21.5,
  position: { ...POSITION, recorded_at: RECORDED_AT, freshness: 'live' },
  fuel: { level_percent: 38.5, source: 'reported', reported_at: RECORDED_AT, freshness: 'live' },
  fuel_level_percent: 38.5,
  fuel_level_source: 'reported',
  fuel_level_as_of: RECORDED_AT,
  revision: 7,
  created_at: GUIDANCE_STARTED_AT,
  updated_at: NOW,
  plan_updated_at: PLANNED_AT,
};

/** Right after the start: the first plan is made from the latest breadcrumb, before any skip. */
const started = {
  ...session,
  stops: session.stops.map((stop) => ({ ...stop, recommended_at: GUIDANCE_STARTED_AT })),
  skipped_stops: [],
  revision: 1,
  updated_at: GUIDANCE_STARTED_AT,
  plan_updated_at: GUIDANCE_STARTED_AT,
};

const byVehicle = { id: IDS.vehicle };
const byStop = { id: IDS.vehicle, stopId: IDS.guidanceStop };
const noSession = new ApiError(
  'no_active_guidance',
  `Vehicle ${IDS.vehicle} has no active guidance session.`,
  {
    hint: `start one with POST /v1/vehicles/${IDS.vehicle}/guidance`,
  },
);

export const guidanceExamples = {
  startGuidance: {
    request: { params: byVehicle, body: { destination: DESTINATION, min_arrival_fuel_percent: 15 } },
    responses: { 201: started },
    problem: rejected('body', startGuidanceBody, {
      destination: { latitude: DESTINATION.latitude, name: DESTINATION.name },
    }),
  },
  getGuidance: {
    request: { params: { id: `ext:${VEHICLE.external_ref}` } },
    responses: { 200: session },
    problem: noSession,
  },
  cancelGuidance: {
    request: { params: byVehicle },
    problem: noSession,
  },
  acknowledgeGuidanceStop: {
    request: { params: byStop },
    problem: new ApiError(
      'resource_conflict',
      `Stop ${IDS.guidanceStop} was skipped and cannot be acknowledged.`,
    ),
  },
  skipGuidanceStop: {
    request: { params: byStop, body: { reason: 'Lot full' } },
    problem: noSession,
  },
} satisfies ExamplesFor<typeof guidanceOperations>;
