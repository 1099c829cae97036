import * as z from 'zod/mini';
import {
  externalRef,
  minArrivalFuelPercentRequest,
  optionalReason,
  pageOf,
  pageQuery,
  percentBetween,
  publicId,
  timestamp,
  vehicleRef,
} from '#shared/api/common-schemas.ts';
import {
  effectiveTruckProfileSchema,
  truckProfileSourcesSchema,
} from '#shared/fleets/api/truck-profile-schemas.ts';
import { fuelLevelSource } from '#shared/tracking/api/fuel-level-schemas.ts';
import {
  answerFuelTaxTreatment,
  fuelPlanStatus,
  fuelProgramShortfallSchema,
  inFuelProgramMember,
  plannedPurchaseShape,
  purchaseCounterfactualSchema,
  truckRouteSchema,
} from '#shared/truck-routes/api/schemas.ts';
import { DISPATCH_STOP_TYPES, MAX_DISPATCH_STOPS, TRIP_STATUSES } from '../domain/trip.ts';
import { TRIP_TIME_WINDOW } from '../domain/trip-times.ts';

const latitude = z.number().check(z.minimum(-90), z.maximum(90));
const longitude = z.number().check(z.minimum(-180), z.maximum(180));
const name = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));
const dateTime = z.iso.datetime({ offset: true }).check(z.meta({ description: 'RFC 3339; stored as UTC' }));
/** A trip's planned times, bounded around the request by the use case (shared/trips/domain/trip-times.ts). */
const plannedTime = dateTime.check(
  z.meta({
    description: `RFC 3339; stored as UTC. At most ${TRIP_TIME_WINDOW.pastDays} days before and ${TRIP_TIME_WINDOW.futureDays} days after the request`,
  }),
);

const tripPlace = z
  .strictObject({ latitude, longitude, name: z.optional(name) })
  .check(z.meta({ id: 'TripPlace' }));

const dispatchStopType = z
  .enum(DISPATCH_STOP_TYPES)
  .check(z.meta({ description: 'The dispatcher’s stop types; `fuel` stops are the system’s' }));

/** A PATCH may send back the fuel stops GET showed (ignored when unchanged), beside the dispatcher's. */
const MAX_SENT_STOPS = 100;

const newStop = z.strictObject({
  type: dispatchStopType,
  latitude,
  longitude,
  name: z.optional(name),
  planned_arrival_at: z.optional(plannedTime),
});

const dispatchStops = <T extends z.core.$ZodType>(stop: T) =>
  z
    .array(stop)
    .check(z.maxLength(MAX_DISPATCH_STOPS, { error: `must hold at most ${MAX_DISPATCH_STOPS} stops` }));

/** planned_end_at, when given, after planned_start_at. */
const endAfterStart = (
  body: { planned_start_at?: string | undefined; planned_end_at?: string | null | undefined },
  ctx: z.core.$RefinementCtx,
) => {
  if (!body.planned_start_at || !body.planned_end_at) return;
  if (Date.parse(body.planned_end_at) <= Date.parse(body.planned_start_at)) {
    ctx.addIssue({ code: 'custom', path: ['planned_end_at'], message: 'must be after planned_start_at' });
  }
};

export const createTripBody = z
  .strictObject({
    vehicle_id: z.optional(publicId('vehicle')),
    external_ref: z
      .optional(externalRef)
      .check(z.meta({ description: 'The vehicle’s external_ref, instead of vehicle_id' })),
    reference: z
      .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100)))
      .check(z.meta({ description: 'Your own reference, e.g. the TMS load number' })),
    origin: tripPlace,
    destination: tripPlace,
    planned_start_at: plannedTime,
    planned_end_at: z.optional(plannedTime),
    stops: z.optional(dispatchStops(newStop)),
    auto_optimize: z
      ._default(z.boolean(), false)
      .check(z.meta({ description: 'Generate the fuel stops now (default false)' })),
    start_fuel_percent: z.optional(percentBetween(0, 100)).check(
      z.meta({
        description:
          'Fuel at the origin; omitted: the vehicle’s latest reported level when the fuel stops are planned',
      }),
    ),
    min_arrival_fuel_percent: minArrivalFuelPercentRequest,
  })
  .check(
    z.superRefine((body, ctx) => {
      if ((body.vehicle_id === undefined) === (body.external_ref === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['vehicle_id'],
          message: 'give exactly one of vehicle_id or external_ref',
        });
      }
      endAfterStart(body, ctx);
    }),
    z.meta({ id: 'CreateTripRequest' }),
  );
export type CreateTripBody = z.infer<typeof createTripBody>;

/** The read-only members of a stop as GET shows them: tolerated when a client PATCHes back what it read. */
const readBack = {
  sequence: z.optional(z.number().check(z.int())),
  system_managed: z.optional(z.boolean()),
  arrived_at: z.optional(z.nullable(z.string())),
  departed_at: z.optional(z.nullable(z.string())),
};

const editedDispatchStop = z.strictObject({
  id: z
    .optional(publicId('tripStop'))
    .check(z.meta({ description: 'Keeps an existing stop (and its visit times); omitted: a new stop' })),
  type: dispatchStopType,
  latitude,
  longitude,
  name: z.optional(z.nullable(name)),
  planned_arrival_at: z.optional(z.nullable(plannedTime)),
  ...readBack,
  fuel: z.optional(z.null()),
});

/**
 * A fuel stop as GET showed it, sent back: every member it may carry is GET's (anything else is a
 * 422 naming it), and each one sent must equal GET's (checked by the use case).
 */
const sentBackFuelStop = z.strictObject({
  id: z.optional(z.string()),
  type: z.literal('fuel'),
  latitude: z.optional(z.number()),
  longitude: z.optional(z.number()),
  name: z.optional(z.nullable(z.string())),
  planned_arrival_at: z.optional(z.nullable(z.string())),
  ...readBack,
  fuel: z.optional(
    z.nullable(
      z.strictObject({
        station: z.optional(
          z.strictObject({
            id: z.optional(z.string()),
            name: z.optional(z.string()),
            chain: z.optional(z.string()),
            latitude: z.optional(z.number()),
            longitude: z.optional(z.number()),
            address: z.optional(z.string()),
          }),
        ),
        miles_along_route: z.optional(z.number()),
        detour_miles: z.optional(z.number()),
        gallons_to_buy: z.optional(z.number()),
        price_usd_per_gallon: z.optional(z.number()),
        discount_usd_per_gallon: z.optional(z.number()),
        net_price_usd_per_gallon: z.optional(z.number()),
        state: z.optional(z.nullable(z.string())),
        state_tax_usd_per_gallon: z.optional(z.nullable(z.number())),
        effective_price_usd_per_gallon: z.optional(z.number()),
        counterfactual: z.optional(
          z.nullable(
            z.strictObject({
              pump_price_usd_per_gallon: z.optional(z.number()),
              net_price_usd_per_gallon: z.optional(z.number()),
              station_count: z.optional(z.number()),
            }),
          ),
        ),
        in_fuel_program: z.optional(z.nullable(z.boolean())),
        reason: z.optional(z.string()),
      }),
    ),
  ),
});

export const updateTripBody = z
  .strictObject({
    reference: z.optional(z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(100)))),
    planned_start_at: z.optional(plannedTime),
    planned_end_at: z.optional(z.nullable(plannedTime)),
    origin: z.optional(tripPlace),
    destination: z.optional(tripPlace),
    stops: z
      .optional(
        z.array(z.discriminatedUnion('type', [editedDispatchStop, sentBackFuelStop])).check(
          // The fuel stops a client sends back come on top of the 25 dispatcher stops.
          z.maxLength(MAX_SENT_STOPS, { error: `must hold at most ${MAX_SENT_STOPS} stops` }),
          z.refine((stops) => stops.filter((stop) => stop.type !== 'fuel').length <= MAX_DISPATCH_STOPS, {
            error: `must hold at most ${MAX_DISPATCH_STOPS} pickup, delivery, rest or other stops`,
          }),
        ),
      )
      .check(
        z.meta({
          description:
            'The full list of the dispatcher’s stops, in order. A fuel stop sent back unchanged is ignored; a changed or new one is 422 fuel_stop_immutable.',
        }),
      ),
  })
  .check(z.superRefine(endAfterStart), z.meta({ id: 'UpdateTripRequest' }));
export type UpdateTripBody = z.infer<typeof updateTripBody>;

export const cancelTripBody = z
  .strictObject({
    reason: optionalReason('Kept as cancel_reason and sent with trip.cancelled'),
  })
  .check(z.meta({ id: 'CancelTripRequest' }));

export const tripParams = z.object({ id: publicId('trip') });
export const tripStopParams = z.object({ id: publicId('trip'), stopId: publicId('tripStop') });

export const listTripsQuery = z.object({
  status: z.optional(z.enum(TRIP_STATUSES)),
  vehicle_id: z.optional(vehicleRef),
  from: z.optional(dateTime).check(z.meta({ description: 'Trips planned to start at or after this time' })),
  to: z.optional(dateTime).check(z.meta({ description: 'Trips planned to start at or before this time' })),
  include: z
    .optional(z.literal('polyline', { error: 'must be polyline (the only thing a list can include)' }))
    .check(z.meta({ description: '`polyline` adds each trip’s route geometry' })),
  ...pageQuery,
});

const placeOut = z.object({ latitude: z.number(), longitude: z.number(), name: z.nullable(z.string()) });

const tripStopSchema = z
  .object({
    id: publicId('tripStop'),
    sequence: z.number().check(z.int(), z.meta({ description: '1-based position in route order' })),
    type: z.enum([...DISPATCH_STOP_TYPES, 'fuel']),
    system_managed: z.boolean().check(z.meta({ description: 'True for fuel stops' })),
    name: z.nullable(z.string()),
    latitude: z.number(),
    longitude: z.number(),
    planned_arrival_at: z.nullable(timestamp),
    arrived_at: z.nullable(timestamp),
    departed_at: z.nullable(timestamp),
    fuel: z
      .nullable(
        z.object({
          ...plannedPurchaseShape,
          counterfactual: z.nullable(purchaseCounterfactualSchema).check(
            z.meta({
              description:
                'What this purchase costs without our advice; null on stops planned before it was kept',
            }),
          ),
          in_fuel_program: inFuelProgramMember,
          reason: z.string(),
        }),
      )
      .check(z.meta({ description: 'On fuel stops: what to buy there; null on the dispatcher’s stops' })),
  })
  .check(z.meta({ id: 'TripStop' }));

export const tripSchema = z
  .object({
    id: publicId('trip'),
    vehicle_id: publicId('vehicle'),
    external_ref: z.string(),
    reference: z.nullable(z.string()),
    status: z.enum(TRIP_STATUSES),
    auto_optimize: z.boolean(),
    origin: placeOut,
    destination: placeOut,
    planned_start_at: timestamp,
    planned_end_at: z.nullable(timestamp),
    started_at: z.nullable(timestamp),
    completed_at: z.nullable(timestamp),
    cancelled_at: z.nullable(timestamp),
    cancel_reason: z.nullable(z.string()),
    stops: z.array(tripStopSchema),
    distance_miles: z.nullable(z.number()),
    duration_minutes: z.nullable(z.number()),
    polyline: z.optional(z.string()).check(
      z.meta({
        description:
          'Google encoded polyline, precision 5; always on GET /v1/trips/{id}, on lists only with include=polyline',
      }),
    ),
    truck_profile: z
      .nullable(effectiveTruckProfileSchema)
      .check(z.meta({ description: 'The truck the route was computed for; null without a route.' })),
    truck_profile_sources: z
      .nullable(truckProfileSourcesSchema)
      .check(z.meta({ description: 'Where each member of truck_profile came from; null without a route.' })),
    fuel_plan: z
      .nullable(
        z.object({
          status: fuelPlanStatus,
          reason: z.string(),
          fuel_program_shortfall: fuelProgramShortfallSchema,
          start_fuel_percent: z.number(),
          fuel_level_source: fuelLevelSource,
          fuel_level_as_of: timestamp.check(
            z.meta({
              description:
                'The moment start_fuel_percent describes: the breadcrumb it was reported or projected to (the optimization’s time for start_fuel_percent and an assumed level without a breadcrumb)',
            }),
          ),
          min_arrival_fuel_percent: z.number(),
          total_gallons: z.number(),
          total_cost_usd: z.number(),
          projected_arrival_fuel_percent: z.nullable(z.number()),
          fuel_tax_treatment: answerFuelTaxTreatment,
          baseline: truckRouteSchema.shape.baseline,
          savings: truckRouteSchema.shape.savings,
          optimized_at: timestamp,
        }),
      )
      .check(
        z.meta({
          description:
            'The fuel stops’ plan and its comparison with the counterfactual (as POST /v1/routes words them); null until optimized',
        }),
      ),
    guidance_id: z
      .nullable(z.string())
      .check(z.meta({ description: 'The guidance session the start opened' })),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .check(z.meta({ id: 'Trip' }));

export const tripPageSchema = pageOf(tripSchema, 'TripPage');
