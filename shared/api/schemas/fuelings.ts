import * as z from 'zod';
import { REPORT_PERIOD } from '../../domain/fuelings/period.ts';
import { externalRef, pageOf, pageQuery, publicId, timestamp, vehicleRef } from './common.ts';
import { LOCATION_BATCH_LIMITS } from './locations.ts';

/** Same bounds as the location batch (spec section 8): 500 items and 1 MB; over either, 413. */
export const FUELING_BATCH_LIMITS = LOCATION_BATCH_LIMITS;

/** A card record from further ahead than this is a clock error, not a purchase. */
export const MAX_FUELING_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** The oldest fill accepted: the longest period the savings report covers. */
export const MAX_FUELING_AGE_DAYS = REPORT_PERIOD.maxDays;

export const fuelingItemSchema = z
  .strictObject({
    vehicle_id: z.optional(publicId('vehicle')),
    external_ref: z.optional(externalRef),
    fueled_at: z.iso.datetime({ offset: true }).meta({ description: 'RFC 3339; stored as UTC' }),
    gallons: z
      .number()
      .gt(0)
      .max(1000)
      .meta({ description: 'Gallons bought, more than 0 and at most 1,000' }),
    price_usd_per_gallon: z.number().min(1).max(15).optional().meta({ description: 'Posted (pump) price' }),
    discount_usd_per_gallon: z
      .number()
      .min(0)
      .max(5)
      .optional()
      .meta({ description: 'Card discount per gallon' }),
    total_usd: z.number().min(0).max(100_000).optional().meta({ description: 'What the card was charged' }),
    station_id: z.optional(publicId('station')).meta({ description: 'A catalog station (`stn_`)' }),
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    odometer_miles: z.number().min(0).max(10_000_000).optional(),
    card_transaction_ref: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .optional()
      .meta({ description: 'Unique per fleet: a reference already recorded is answered `duplicate`' }),
    merchant_name: z.string().trim().min(1).max(200).optional(),
  })
  .superRefine((item, ctx) => {
    if ((item.vehicle_id === undefined) === (item.external_ref === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['vehicle_id'],
        message: 'send exactly one of vehicle_id or external_ref',
      });
    }
    if ((item.latitude === undefined) !== (item.longitude === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [item.latitude === undefined ? 'latitude' : 'longitude'],
        message: 'send latitude and longitude together',
      });
    }
    if (
      item.discount_usd_per_gallon !== undefined &&
      (item.price_usd_per_gallon === undefined || item.discount_usd_per_gallon > item.price_usd_per_gallon)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['discount_usd_per_gallon'],
        message: 'needs price_usd_per_gallon and must not exceed it',
      });
    }
  })
  .meta({ id: 'FuelingItem' });

export type FuelingItem = z.infer<typeof fuelingItemSchema>;

/** The envelope only: each item is validated on its own so one bad row never sinks the batch. */
export const fuelingBatchBody = z
  .strictObject({
    fuelings: z
      .array(z.unknown())
      .min(1)
      .meta({ description: `1–${FUELING_BATCH_LIMITS.maxItems} fuelings (see FuelingItem)` }),
  })
  .meta({ id: 'CreateFuelingsRequest' });

export const fuelingBatchResult = z
  .object({
    accepted: z.number().int(),
    rejected: z.number().int(),
    duplicates: z.number().int(),
    results: z.array(
      z.object({
        index: z.number().int().meta({ description: 'Position in the request' }),
        status: z.enum(['accepted', 'rejected', 'duplicate']),
        id: z
          .string()
          .optional()
          .meta({ description: 'The fueling (`fuel_`): new, or the one already recorded' }),
        code: z.string().optional(),
        hint: z.string().optional(),
        errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
      }),
    ),
  })
  .meta({ id: 'FuelingBatchResult' });

export const fuelingSchema = z
  .object({
    id: z.string().meta({ example: 'fuel_01JD7ZK3M4N5P6Q7R8S9T0V1W2' }),
    vehicle_id: z.string(),
    external_ref: z.string().nullable(),
    source: z.enum(['reported', 'detected']),
    fueled_at: timestamp,
    gallons: z.number().nullable(),
    price_usd_per_gallon: z.number().nullable(),
    discount_usd_per_gallon: z.number().nullable(),
    net_price_usd_per_gallon: z
      .number()
      .nullable()
      .meta({ description: 'price − discount, or total ÷ gallons' }),
    total_usd: z.number().nullable(),
    benchmark_price_usd_per_gallon: z
      .number()
      .nullable()
      .meta({ description: 'Average posted price of catalog stations within 25 miles when recorded' }),
    station: z
      .object({
        id: z.string(),
        name: z.string(),
        chain: z.string(),
        latitude: z.number(),
        longitude: z.number(),
        address: z.string(),
      })
      .nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    odometer_miles: z.number().nullable(),
    card_transaction_ref: z.string().nullable(),
    merchant_name: z.string().nullable(),
    fuel_level_before_percent: z.number().nullable(),
    fuel_level_after_percent: z.number().nullable(),
    match: z
      .object({
        guidance_id: z.string(),
        trip_id: z.string().nullable(),
        stop_id: z
          .string()
          .meta({ description: 'The trip fuel stop (`tsp_`) when a trip, else the guidance stop (`gds_`)' }),
        recommended_net_price_usd_per_gallon: z.number().nullable(),
      })
      .nullable(),
    linked_fueling_id: z
      .string()
      .nullable()
      .meta({ description: 'The other record of the same fill (reported ↔ detected)' }),
    detected_gallons: z
      .number()
      .nullable()
      .meta({ description: 'On a reported fueling: what the detection measured' }),
    missed_savings_usd: z.number().nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'Fueling' });

const dateOrDateTime = z
  .string()
  .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) || z.iso.datetime({ offset: true }).safeParse(v).success, {
    message: 'must be a date (YYYY-MM-DD) or an RFC 3339 date-time',
  });

export const listFuelingsQuery = z.object({
  vehicle_id: z.optional(vehicleRef),
  from: z.iso.datetime({ offset: true }).optional().meta({ description: 'fueled_at at or after' }),
  to: z.iso.datetime({ offset: true }).optional().meta({ description: 'fueled_at at or before' }),
  source: z.enum(['reported', 'detected']).optional().meta({
    description:
      'Omitted: each fill once (a detection merged into a reported fueling is listed only with `source=detected`)',
  }),
  ...pageQuery,
});
export const fuelingPage = pageOf(fuelingSchema, 'FuelingPage');

export const savingsReportQuery = z.object({
  from: dateOrDateTime
    .optional()
    .meta({ description: 'Date or date-time; its UTC day is the first covered' }),
  to: dateOrDateTime.optional().meta({ description: 'Date or date-time; its UTC day is the last covered' }),
  vehicle_id: z.optional(vehicleRef),
});

const figures = {
  fuelings: z.number().int(),
  gallons: z.number(),
  spend_usd: z.number(),
  benchmark_spend_usd: z.number(),
  savings_usd: z.number(),
  savings_usd_per_gallon: z.number().nullable(),
  missed_savings_usd: z.number(),
  recommended_stops: z.number().int(),
  followed_stops: z.number().int(),
};

export const savingsReportSchema = z
  .object({
    period: z.object({
      from: timestamp.check(z.meta({ description: 'Start of the first UTC day covered' })),
      to: timestamp.check(
        z.meta({
          description: 'End of the period: start of the UTC day after the last covered (exclusive)',
        }),
      ),
    }),
    totals: z.object(figures),
    adherence_rate: z
      .number()
      .nullable()
      .meta({ description: 'followed ÷ recommended; null when nothing was due' }),
    vehicles: z.array(
      z.object({
        vehicle_id: z.string(),
        external_ref: z.string().nullable(),
        ...figures,
        adherence_rate: z.number().nullable(),
      }),
    ),
    definitions: z.record(z.string(), z.string()),
  })
  .meta({ id: 'SavingsReport' });
