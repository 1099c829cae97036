import * as z from 'zod/mini';
import { nullableNumber, publicId, timestamp } from '#shared/api/common-schemas.ts';
import { fleetSchema } from '#shared/fleets/api/schemas.ts';
import { purchaseVerificationSchema } from '#shared/fuelings/api/schemas.ts';
import { guidancePhase } from '#shared/guidance/api/schemas.ts';
import { SESSION_END_REASONS, SESSION_STATUSES } from '#shared/guidance/domain/session.ts';
import {
  answerFuelTaxTreatment,
  fuelPlanStatus,
  stopPriceBasisShape,
} from '#shared/truck-routes/api/schemas.ts';
import type { EventType } from '../domain/events.ts';

/**
 * The `data` of each event type, member by member: the contract the builders in
 * shared/events/domain/event-payloads.ts are typed by (their `data` is these schemas' input type), the
 * test sends fill in (shared/webhooks/usecases/webhook-test-samples.ts), GET /v1/webhooks/event-types lists
 * the members of, and openapi.json publishes under `webhooks` and `EventEnvelope`. Nothing parses
 * events with them at run time: the builders' types keep the code to them, and the tests check
 * what is delivered against the published document.
 */

const described = (schema: z.ZodMiniString, description: string) => schema.check(z.meta({ description }));

const vehicleId = described(publicId('vehicle'), 'The vehicle (`veh_`).');
const externalRef = z
  .nullable(z.string())
  .check(z.meta({ description: 'The vehicle’s external_ref now (null when it has none).' }));
const guidanceId = described(publicId('guidance'), 'The guidance session (`gd_`).');
const latitude = z.number().check(z.meta({ description: 'WGS84 degrees, to 5 decimal places.' }));
const longitude = z.number().check(z.meta({ description: 'WGS84 degrees, to 5 decimal places.' }));
const at = (description: string) => timestamp.check(z.meta({ description }));

/** A station the event is about, where it is. */
const stationAt = z.object({
  id: described(publicId('station'), 'The catalog station (`stn_`).'),
  name: z.string(),
  latitude,
  longitude,
});

/** A visit at a stop: the guidance stop's `gds_` id, or the trip stop's `tsp_` id at a trip's stop. */
const visitedStopId = z.union([publicId('guidanceStop'), publicId('tripStop')]).check(
  z.meta({
    description:
      'The trip stop (`tsp_`) when the visit is at a trip’s stop, else the guidance stop (`gds_`).',
  }),
);
const visitGuidanceId = z
  .nullable(publicId('guidance'))
  .check(z.meta({ description: 'The guidance session watching the stop; null at a trip stop without one.' }));
const visitStation = z
  .nullable(stationAt)
  .check(z.meta({ description: 'The station of a fuel stop; null at a dispatcher’s stop without one.' }));
const visitTripId = z
  .optional(publicId('trip'))
  .check(z.meta({ description: 'Present when the stop is a trip’s: the trip (`trip_`).' }));

const tripData = <S extends 'active' | 'completed' | 'cancelled'>(status: S) => ({
  trip_id: described(publicId('trip'), 'The trip (`trip_`).'),
  vehicle_id: vehicleId,
  external_ref: externalRef,
  reference: z
    .nullable(z.string())
    .check(z.meta({ description: 'The trip’s own reference (e.g. a load number).' })),
  status: z
    .literal(status)
    .check(z.meta({ description: `The trip’s status after the change: \`${status}\`.` })),
});

/** A type's `data`, published as the component `<Stem>Data` (e.g. `VehicleStopArrivedData`). */
const eventData = <S extends z.core.$ZodLooseShape>(type: EventType, shape: S) =>
  z.object(shape).check(z.meta({ id: `${eventComponentStem(type)}Data` }));

export const eventDataSchemas = {
  'guidance.updated': eventData('guidance.updated', {
    vehicle_id: vehicleId,
    external_ref: externalRef,
    guidance_id: guidanceId,
    change: z.enum(['created', 'refreshed', 'cleared']).check(
      z.meta({
        description:
          'created: the session’s first stop set; refreshed: a new one; cleared: the session ended.',
      }),
    ),
    status: z.enum(SESSION_STATUSES),
    phase: guidancePhase,
    plan_status: z.nullable(fuelPlanStatus).check(
      z.meta({
        description:
          'The plan behind the stops, as the guidance’s `plan_status`: `no_accepted_station_in_range` says the fleet’s fuel card program leaves the truck short (GET the guidance for `fuel_program_shortfall`); null before the first plan.',
      }),
    ),
    stop_ids: z
      .array(publicId('guidanceStop'))
      .check(z.meta({ description: 'The recommended stops (`gds_`) in route order; empty once cleared.' })),
    reason: z
      .optional(z.enum(SESSION_END_REASONS))
      .check(z.meta({ description: 'Present once the session ended: why.' })),
  }),
  'guidance.stop_approaching': eventData('guidance.stop_approaching', {
    vehicle_id: vehicleId,
    external_ref: externalRef,
    guidance_id: guidanceId,
    stop_id: described(publicId('guidanceStop'), 'The guidance stop (`gds_`) ahead.'),
    station: stationAt,
    miles_ahead: z
      .number()
      .check(z.meta({ description: 'Road miles from the vehicle to the exit for the station.' })),
    gallons_to_buy: nullableNumber('Null when the fuel level is estimated.'),
  }),
  'vehicle.stop_arrived': eventData('vehicle.stop_arrived', {
    vehicle_id: vehicleId,
    external_ref: externalRef,
    guidance_id: visitGuidanceId,
    stop_id: visitedStopId,
    station: visitStation,
    arrived_at: at('The first stationary breadcrumb at the stop.'),
    latitude,
    longitude,
    trip_id: visitTripId,
  }),
  'vehicle.stop_departed': eventData('vehicle.stop_departed', {
    vehicle_id: vehicleId,
    external_ref: externalRef,
    guidance_id: visitGuidanceId,
    stop_id: visitedStopId,
    station: visitStation,
    arrived_at: at('When the visit began.'),
    departed_at: at('The breadcrumb that left the stop.'),
    dwell_minutes: z.number().check(z.meta({ description: 'Minutes at the stop, to 0.1.' })),
    trip_id: visitTripId,
  }),
  'trip.started': eventData('trip.started', tripData('active')),
  'trip.completed': eventData('trip.completed', tripData('completed')),
  'trip.cancelled': eventData('trip.cancelled', {
    ...tripData('cancelled'),
    reason: z.optional(z.string()).check(z.meta({ description: 'Present when the cancellation gave one.' })),
  }),
  'fueling.recorded': eventData('fueling.recorded', {
    fueling_id: described(publicId('fueling'), 'The fueling recorded (`fuel_`).'),
    vehicle_id: vehicleId,
    external_ref: externalRef,
    source: z.literal('detected').check(z.meta({ description: 'Detected from a tank-level rise.' })),
    gallons: nullableNumber('The rise times the tank size, to 0.1; null when the vehicle has no tank size.'),
    fuel_level_before_percent: z.number(),
    fuel_level_after_percent: z.number(),
    latitude,
    longitude,
    started_at: at('When the vehicle stopped to fill.'),
    fueled_at: at('When the fill ended.'),
  }),
  'fueling.matched': eventData('fueling.matched', {
    fueling_id: described(publicId('fueling'), 'The fueling (`fuel_`), detected or reported.'),
    vehicle_id: vehicleId,
    external_ref: externalRef,
    guidance_id: guidanceId,
    trip_id: z
      .nullable(publicId('trip'))
      .check(z.meta({ description: 'The trip when the guidance follows one, else null.' })),
    stop_id: z.union([publicId('tripStop'), publicId('guidanceStop')]).check(
      z.meta({
        description:
          'The trip fuel stop (`tsp_`) when the guidance follows a trip, else the guidance stop (`gds_`).',
      }),
    ),
    station_id: described(publicId('station'), 'The recommended station (`stn_`).'),
    station: z.object({ id: publicId('station'), name: z.string(), state: stopPriceBasisShape.state }),
    gallons: nullableNumber('Gallons bought, when known.'),
    recommended_gallons: nullableNumber('What the stop recommended; null when the fuel level was estimated.'),
    distance_miles: nullableNumber(
      'From the fill’s position to the station, to 0.01; null without a position.',
    ),
    net_price_usd_per_gallon: nullableNumber('What the fill cost a gallon after discounts, when known.'),
    recommended_net_price_usd_per_gallon: z.number(),
    // The price basis, as the fueling record and the guidance stop show it.
    state_tax_usd_per_gallon: nullableNumber(
      'The state diesel tax in the station’s pump price (the IFTA rate in force); null when the tax table lacks the state.',
    ),
    fuel_tax_treatment: answerFuelTaxTreatment,
    effective_price_usd_per_gallon: nullableNumber(
      'What the fill cost a gallon on that basis: net_price_usd_per_gallon − state_tax_usd_per_gallon under `ifta`, the net price under `pump`; null when the net price is unknown.',
    ),
    recommended_effective_price_usd_per_gallon: z
      .number()
      .check(z.meta({ description: 'The recommended stop’s effective price on the same basis.' })),
  }),
  'fueling.flagged': eventData('fueling.flagged', {
    fueling_id: described(publicId('fueling'), 'The reported fueling (`fuel_`).'),
    vehicle_id: vehicleId,
    external_ref: externalRef,
    fueled_at: at('The purchase’s time, as reported.'),
    gallons: z.number().check(z.meta({ description: 'Gallons on the card record.' })),
    // A station, not a `station_id`: that member is required and never null in the types before,
    // and a purchase may name no station.
    station: z
      .nullable(
        z.object({
          id: described(publicId('station'), 'The catalog station (`stn_`).'),
          name: z.string(),
          chain: z.string(),
        }),
      )
      .check(
        z.meta({
          description:
            'The catalog station the purchase names or was placed at (within 0.25 mi of its coordinates); null without one.',
        }),
      ),
    card_transaction_ref: z
      .nullable(z.string())
      .check(z.meta({ description: 'The card network’s reference, when the purchase carried one.' })),
    verification: purchaseVerificationSchema,
  }),
  'vehicle.fuel_low': eventData('vehicle.fuel_low', {
    vehicle_id: vehicleId,
    external_ref: externalRef,
    fuel_level_percent: z.number().check(z.meta({ description: 'The smoothed level that crossed.' })),
    threshold_percent: z.number(),
    latitude,
    longitude,
    recorded_at: at('The breadcrumb that crossed.'),
  }),
  'vehicle.offline': eventData('vehicle.offline', {
    vehicle_id: vehicleId,
    external_ref: externalRef,
    last_seen_at: at('The last breadcrumb received.'),
    offline_after_minutes: z
      .number()
      .check(z.int(), z.meta({ description: 'The silence after which a vehicle is offline.' })),
  }),
  'vehicle.online': eventData('vehicle.online', {
    vehicle_id: vehicleId,
    external_ref: externalRef,
    last_seen_at: at('The breadcrumb that brought it back.'),
    offline_since_last_seen_at: z
      .nullable(timestamp)
      .check(z.meta({ description: 'The last breadcrumb before it went offline.' })),
    latitude,
    longitude,
  }),
  'fleet.provisioned': eventData('fleet.provisioned', { fleet: fleetSchema }),
} satisfies Record<EventType, z.ZodMiniObject>;

export type EventDataSchemas = typeof eventDataSchemas;

/** The member names of a type's `data`, a trailing `?` on one that is only sometimes there. */
export function dataFieldsOf(type: EventType): string[] {
  const shape = eventDataSchemas[type]._zod.def.shape as Record<string, z.core.$ZodType>;
  return Object.entries(shape).map(([name, member]) =>
    member._zod.optin === 'optional' ? `${name}?` : name,
  );
}

/** `vehicle.stop_arrived` → `VehicleStopArrived`: the stem of a type's component names. */
export function eventComponentStem(type: EventType): string {
  return type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}
