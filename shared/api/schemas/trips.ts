import * as z from 'zod';
import { DISPATCH_STOP_TYPES, MAX_DISPATCH_STOPS, TRIP_STATUSES } from '../../domain/trips/trip.ts';
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
} from './common.ts';
import { plannedStationSchema, truckRouteSchema } from './routes.ts';

const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);
const name = z.string().trim().min(1).max(200);
const dateTime = z.iso.datetime({ offset: true }).meta({ description: 'RFC 3339; stored as UTC' });

const tripPlace = z.strictObject({ latitude, longitude, name: name.optional() }).meta({ id: 'TripPlace' });

const dispatchStopType = z
  .enum(DISPATCH_STOP_TYPES)
  .meta({ description: 'The dispatcher’s stop types; `fuel` stops are the system’s' });

/** A PATCH may send back the fuel stops GET showed (ignored when unchanged), beside the dispatcher's. */
const MAX_SENT_STOPS = 100;

const newStop = z.strictObject({
  type: dispatchStopType,
  latitude,
  longitude,
  name: name.optional(),
  planned_arrival_at: dateTime.optional(),
});

const dispatchStops = <T extends z.ZodType>(stop: T) =>
  z.array(stop).max(MAX_DISPATCH_STOPS, { error: `must hold at most ${MAX_DISPATCH_STOPS} stops` });

/** planned_end_at, when given, after planned_start_at. */
const endAfterStart = (
  body: { planned_start_at?: string | undefined; planned_end_at?: string | null | undefined },
  ctx: z.RefinementCtx,
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
      .meta({ description: 'The vehicle’s external_ref, instead of vehicle_id' }),
    reference: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: 'Your own reference, e.g. the TMS load number' }),
    origin: tripPlace,
    destination: tripPlace,
    planned_start_at: dateTime,
    planned_end_at: dateTime.optional(),
    stops: dispatchStops(newStop).optional(),
    auto_optimize: z
      .boolean()
      .default(false)
      .meta({ description: 'Generate the fuel stops now (default false)' }),
    start_fuel_percent: z.optional(percentBetween(0, 100)).meta({
      description:
        'Fuel at the origin; omitted: the vehicle’s latest reported level when the fuel stops are planned',
    }),
    min_arrival_fuel_percent: minArrivalFuelPercentRequest,
  })
  .superRefine((body, ctx) => {
    if ((body.vehicle_id === undefined) === (body.external_ref === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['vehicle_id'],
        message: 'give exactly one of vehicle_id or external_ref',
      });
    }
    endAfterStart(body, ctx);
  })
  .meta({ id: 'CreateTripRequest' });
export type CreateTripBody = z.infer<typeof createTripBody>;

/** The read-only members of a stop as GET shows them: tolerated when a client PATCHes back what it read. */
const readBack = {
  sequence: z.number().int().optional(),
  system_managed: z.boolean().optional(),
  arrived_at: z.string().nullable().optional(),
  departed_at: z.string().nullable().optional(),
};

const editedDispatchStop = z.strictObject({
  id: z
    .optional(publicId('tripStop'))
    .meta({ description: 'Keeps an existing stop (and its visit times); omitted: a new stop' }),
  type: dispatchStopType,
  latitude,
  longitude,
  name: name.nullable().optional(),
  planned_arrival_at: dateTime.nullable().optional(),
  ...readBack,
  fuel: z.null().optional(),
});

/**
 * A fuel stop as GET showed it, sent back: every member it may carry is GET's (anything else is a
 * 422 naming it), and each one sent must equal GET's (checked by the use case).
 */
const sentBackFuelStop = z.strictObject({
  id: z.string().optional(),
  type: z.literal('fuel'),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  name: z.string().nullable().optional(),
  planned_arrival_at: z.string().nullable().optional(),
  ...readBack,
  fuel: z
    .strictObject({
      station: z
        .strictObject({
          id: z.string().optional(),
          name: z.string().optional(),
          chain: z.string().optional(),
          latitude: z.number().optional(),
          longitude: z.number().optional(),
          address: z.string().optional(),
        })
        .optional(),
      miles_along_route: z.number().optional(),
      detour_miles: z.number().optional(),
      gallons_to_buy: z.number().optional(),
      price_usd_per_gallon: z.number().optional(),
      discount_usd_per_gallon: z.number().optional(),
      net_price_usd_per_gallon: z.number().optional(),
      reason: z.string().optional(),
    })
    .nullable()
    .optional(),
});

export const updateTripBody = z
  .strictObject({
    reference: z.string().trim().min(1).max(100).nullable().optional(),
    planned_start_at: dateTime.optional(),
    planned_end_at: dateTime.nullable().optional(),
    origin: tripPlace.optional(),
    destination: tripPlace.optional(),
    stops: z
      .array(z.discriminatedUnion('type', [editedDispatchStop, sentBackFuelStop]))
      // The fuel stops a client sends back come on top of the 25 dispatcher stops.
      .max(MAX_SENT_STOPS, { error: `must hold at most ${MAX_SENT_STOPS} stops` })
      .refine((stops) => stops.filter((stop) => stop.type !== 'fuel').length <= MAX_DISPATCH_STOPS, {
        error: `must hold at most ${MAX_DISPATCH_STOPS} pickup, delivery, rest or other stops`,
      })
      .optional()
      .meta({
        description:
          'The full list of the dispatcher’s stops, in order. A fuel stop sent back unchanged is ignored; a changed or new one is 422 fuel_stop_immutable.',
      }),
  })
  .superRefine(endAfterStart)
  .meta({ id: 'UpdateTripRequest' });
export type UpdateTripBody = z.infer<typeof updateTripBody>;

export const cancelTripBody = z
  .strictObject({
    reason: optionalReason('Kept as cancel_reason and sent with trip.cancelled'),
  })
  .meta({ id: 'CancelTripRequest' });

export const tripParams = z.object({ id: publicId('trip') });
export const tripStopParams = z.object({ id: publicId('trip'), stopId: publicId('tripStop') });

export const listTripsQuery = z.object({
  status: z.enum(TRIP_STATUSES).optional(),
  vehicle_id: z.optional(vehicleRef),
  from: dateTime.optional().meta({ description: 'Trips planned to start at or after this time' }),
  to: dateTime.optional().meta({ description: 'Trips planned to start at or before this time' }),
  include: z
    .literal('polyline', { error: 'must be polyline (the only thing a list can include)' })
    .optional()
    .meta({ description: '`polyline` adds each trip’s route geometry' }),
  ...pageQuery,
});

const placeOut = z.object({ latitude: z.number(), longitude: z.number(), name: z.string().nullable() });

const tripStopSchema = z
  .object({
    id: publicId('tripStop'),
    sequence: z.number().int().meta({ description: '1-based position in route order' }),
    type: z.enum([...DISPATCH_STOP_TYPES, 'fuel']),
    system_managed: z.boolean().meta({ description: 'True for fuel stops' }),
    name: z.string().nullable(),
    latitude: z.number(),
    longitude: z.number(),
    planned_arrival_at: z.nullable(timestamp),
    arrived_at: z.nullable(timestamp),
    departed_at: z.nullable(timestamp),
    fuel: z
      .object({
        station: plannedStationSchema,
        miles_along_route: z.number(),
        detour_miles: z.number(),
        gallons_to_buy: z.number(),
        price_usd_per_gallon: z.number(),
        discount_usd_per_gallon: z.number(),
        net_price_usd_per_gallon: z.number(),
        reason: z.string(),
      })
      .nullable()
      .meta({ description: 'On fuel stops: what to buy there; null on the dispatcher’s stops' }),
  })
  .meta({ id: 'TripStop' });

export const tripSchema = z
  .object({
    id: publicId('trip'),
    vehicle_id: publicId('vehicle'),
    external_ref: z.string(),
    reference: z.string().nullable(),
    status: z.enum(TRIP_STATUSES),
    auto_optimize: z.boolean(),
    origin: placeOut,
    destination: placeOut,
    planned_start_at: timestamp,
    planned_end_at: z.nullable(timestamp),
    started_at: z.nullable(timestamp),
    completed_at: z.nullable(timestamp),
    cancelled_at: z.nullable(timestamp),
    cancel_reason: z.string().nullable(),
    stops: z.array(tripStopSchema),
    distance_miles: z.number().nullable(),
    duration_minutes: z.number().nullable(),
    polyline: z.string().optional().meta({
      description:
        'Google encoded polyline, precision 5; always on GET /v1/trips/{id}, on lists only with include=polyline',
    }),
    fuel_plan: z
      .object({
        status: z.enum(['ok', 'no_stop_needed', 'infeasible']),
        reason: z.string(),
        start_fuel_percent: z.number(),
        min_arrival_fuel_percent: z.number(),
        total_gallons: z.number(),
        total_cost_usd: z.number(),
        projected_arrival_fuel_percent: z.number().nullable(),
        baseline: truckRouteSchema.shape.baseline,
        savings: truckRouteSchema.shape.savings,
        optimized_at: timestamp,
      })
      .nullable()
      .meta({
        description:
          'The fuel stops’ plan and its comparison with the baseline (as POST /v1/routes words them); null until optimized',
      }),
    guidance_id: z.string().nullable().meta({ description: 'The guidance session the start opened' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Trip' });

export const tripPageSchema = pageOf(tripSchema, 'TripPage');
