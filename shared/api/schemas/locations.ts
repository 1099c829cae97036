import { z } from 'zod';
import { externalRef, publicId, timestamp } from './common.ts';

/** Spec section 8: 500 items and 1 MB, whichever comes first; over either, 413 for the whole batch. */
export const LOCATION_BATCH_LIMITS = { maxItems: 500, maxBytes: 1_000_000 } as const;

/** Breadcrumbs from further in the future than this are a device clock error, not data. */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** How old a position or a fuel level is, graded when read (shared/domain/telematics/freshness.ts). */
export const freshnessGrade = z.enum(['live', 'delayed', 'stale']).meta({
  id: 'FreshnessGrade',
  description: 'live: ≤ 5 minutes old; delayed: ≤ 30 minutes; stale: older',
});

export const breadcrumbSchema = z
  .strictObject({
    vehicle_id: publicId('vehicle').optional(),
    external_ref: externalRef.optional(),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    recorded_at: z.iso.datetime({ offset: true }).meta({ description: 'RFC 3339; stored as UTC' }),
    fuel_level_percent: z.number().min(0).max(100).optional(),
    speed_mph: z.number().min(0).max(150).optional(),
    heading_degrees: z.number().min(0).max(360).optional(),
    driver_ref: z.string().trim().min(1).max(128).optional(),
    address: z.string().trim().min(1).max(300).optional(),
  })
  .superRefine((item, ctx) => {
    if ((item.vehicle_id === undefined) === (item.external_ref === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['vehicle_id'],
        message: 'send exactly one of vehicle_id or external_ref',
      });
    }
  })
  .meta({ id: 'Breadcrumb' });

export type Breadcrumb = z.infer<typeof breadcrumbSchema>;

/** The envelope only: each item is validated on its own so one bad row never sinks the batch. */
export const locationBatchBody = z
  .strictObject({
    locations: z
      .array(z.unknown())
      .min(1)
      .meta({ description: `1–${LOCATION_BATCH_LIMITS.maxItems} breadcrumbs (see Breadcrumb)` }),
  })
  .meta({ id: 'LocationBatchRequest' });

export const locationBatchResult = z
  .object({
    accepted: z.number().int(),
    rejected: z.number().int(),
    results: z.array(
      z.object({
        index: z.number().int(),
        status: z.enum(['accepted', 'rejected']),
        code: z.string().optional(),
        hint: z.string().optional(),
      }),
    ),
  })
  .meta({ id: 'LocationBatchResult' });

export const latestLocationSchema = z
  .object({
    vehicle_id: z.string(),
    latitude: z.number().meta({ description: 'WGS84 degrees, to 5 decimal places' }),
    longitude: z.number().meta({ description: 'WGS84 degrees, to 5 decimal places' }),
    recorded_at: timestamp,
    received_at: timestamp,
    fuel_level_percent: z.number().nullable().meta({ description: 'As reported, to 0.1' }),
    speed_mph: z
      .number()
      .nullable()
      .meta({ description: 'As reported, to 0.1 mph; null when none was sent' }),
    heading_degrees: z.number().nullable(),
    driver_ref: z.string().nullable(),
    address: z.string().nullable(),
    freshness: freshnessGrade,
    age_seconds: z.number().int(),
  })
  .meta({ id: 'LatestLocation' });
