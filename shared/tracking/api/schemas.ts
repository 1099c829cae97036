import * as z from 'zod/mini';
import {
  externalRef,
  fieldErrorSchema,
  nullableNumber,
  publicId,
  requireOneVehicleReference,
  timestamp,
} from '#shared/api/common-schemas.ts';
import { physical } from '#shared/api/ranges.ts';
import { ERROR_REGISTRY, type ErrorCode } from '#shared/platform/errors.ts';

/** Spec section 8: 500 items and 1 MB, whichever comes first; over either, 413 for the whole batch. */
export const LOCATION_BATCH_LIMITS = { maxItems: 500, maxBytes: 1_000_000 } as const;

/** Breadcrumbs from further in the future than this are a device clock error, not data. */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** How old a position or a fuel level is, graded when read (shared/tracking/domain/freshness.ts). */
export const freshnessGrade = z.enum(['live', 'delayed', 'stale']).check(
  z.meta({
    id: 'FreshnessGrade',
    description: 'live: ≤ 5 minutes old; delayed: ≤ 30 minutes; stale: older',
  }),
);

export const breadcrumbSchema = z
  .strictObject({
    vehicle_id: z.optional(publicId('vehicle')),
    external_ref: z.optional(externalRef),
    latitude: z.number().check(z.minimum(-90), z.maximum(90)),
    longitude: z.number().check(z.minimum(-180), z.maximum(180)),
    recorded_at: z.iso.datetime({ offset: true }).check(z.meta({ description: 'RFC 3339; stored as UTC' })),
    fuel_level_percent: z.optional(z.number().check(z.minimum(0), z.maximum(100))),
    speed_mph: z.optional(physical('speed_mph')),
    heading_degrees: z.optional(z.number().check(z.minimum(0), z.maximum(360))),
    driver_ref: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(128))),
    address: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(300))),
  })
  .check(
    z.superRefine(requireOneVehicleReference),
    z.meta({
      id: 'Breadcrumb',
      description:
        'One position report. Name the vehicle by exactly one of `vehicle_id` or `external_ref`; `speed_mph` in miles per hour.',
      // The superRefine above, as JSON Schema: clients and validators see the rule too.
      oneOf: [{ required: ['vehicle_id'] }, { required: ['external_ref'] }],
    }),
  );

export type Breadcrumb = z.infer<typeof breadcrumbSchema>;

/** The envelope only: each item is validated on its own so one bad row never sinks the batch. */
export const locationBatchBody = z.strictObject({ locations: z.array(z.unknown()).check(z.minLength(1)) });

/**
 * The batch as openapi.json publishes it: the envelope with every item a Breadcrumb. Not used to
 * parse (a bad item is rejected on its own, not the batch); more than the item limit is 413.
 */
export const publishedLocationBatchBody = z
  .strictObject({
    locations: z.array(breadcrumbSchema).check(
      z.minLength(1),
      z.maxLength(LOCATION_BATCH_LIMITS.maxItems),
      z.meta({
        description: `1–${LOCATION_BATCH_LIMITS.maxItems} breadcrumbs. Each is accepted or rejected on its own; more than ${LOCATION_BATCH_LIMITS.maxItems} items or 1 MB is 413 \`batch_too_large\` for the whole batch.`,
      }),
    ),
  })
  .check(z.meta({ id: 'LocationBatchRequest' }));

export const locationBatchResult = z
  .object({
    accepted: z.number().check(z.int()),
    rejected: z.number().check(z.int()),
    results: z.array(
      z.object({
        index: z.number().check(z.int()),
        status: z.enum(['accepted', 'rejected']),
        code: z
          .optional(z.enum(Object.keys(ERROR_REGISTRY) as [ErrorCode, ...ErrorCode[]]))
          .check(
            z.meta({ description: 'Rejected items only: the code a request with this item alone would get' }),
          ),
        hint: z
          .optional(z.string())
          .check(z.meta({ description: 'Rejected items only: the concrete next step' })),
        errors: z.optional(z.array(fieldErrorSchema)).check(
          z.meta({
            description:
              'Rejected `validation_failed` items only: the offending fields of the item (paths relative to it), at most 10',
          }),
        ),
        errors_truncated: z
          .optional(z.boolean())
          .check(
            z.meta({ description: 'Present and true when the item had more problems than `errors` lists' }),
          ),
        error_count: z
          .optional(z.number().check(z.int()))
          .check(z.meta({ description: 'With errors_truncated: how many problems the item had' })),
      }),
    ),
  })
  .check(z.meta({ id: 'LocationBatchResult' }));

export const latestLocationSchema = z
  .object({
    vehicle_id: z.string(),
    latitude: z.number().check(z.meta({ description: 'WGS84 degrees, to 5 decimal places' })),
    longitude: z.number().check(z.meta({ description: 'WGS84 degrees, to 5 decimal places' })),
    recorded_at: timestamp,
    received_at: timestamp,
    fuel_level_percent: nullableNumber('As reported, to 0.1'),
    speed_mph: nullableNumber('As reported, to 0.1 mph; null when none was sent'),
    heading_degrees: z.nullable(z.number()),
    driver_ref: z.nullable(z.string()),
    address: z.nullable(z.string()),
    freshness: freshnessGrade,
    age_seconds: z.number().check(z.int()),
  })
  .check(z.meta({ id: 'LatestLocation' }));
