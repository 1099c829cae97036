import * as z from 'zod/mini';
import {
  externalRef,
  nullableNumber,
  pageOf,
  pageQuery,
  publicId,
  requireOneVehicleReference,
  timestamp,
  vehicleRef,
} from '#shared/api/common-schemas.ts';
import { deprecated } from '#shared/api/deprecated-schemas.ts';
import { FUEL_PROGRAM_RULES } from '#shared/fuel-programs/domain/program.ts';
import { FUEL_TAX_TREATMENTS } from '#shared/fuel-tax/domain/treatment.ts';
import { LOCATION_BATCH_LIMITS } from '#shared/tracking/api/schemas.ts';
import { COUNTERFACTUAL_SOURCES } from '../domain/fill-counterfactual.ts';
import { MATCH_WINDOW_HOURS, UNMATCHED_REASONS, type UnmatchedReason } from '../domain/match-window.ts';
import { REPORT_PERIOD } from '../domain/period.ts';
import {
  VERIFICATION_POLICY,
  VERIFICATION_REASON_CODES,
  VERIFICATION_STATUSES,
} from '../domain/verification.ts';

/** Same bounds as the location batch (docs/limits.md#transport-limits): 500 items and 1 MB; over either, 413. */
export const FUELING_BATCH_LIMITS = LOCATION_BATCH_LIMITS;

/** A card record from further ahead than this is a clock error, not a purchase. */
export const MAX_FUELING_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** The oldest fill accepted: the longest period the savings report covers. */
export const MAX_FUELING_AGE_DAYS = REPORT_PERIOD.maxDays;

export const fuelingItemSchema = z
  .strictObject({
    vehicle_id: z.optional(publicId('vehicle')),
    external_ref: z.optional(externalRef),
    fueled_at: z.iso.datetime({ offset: true }).check(z.meta({ description: 'RFC 3339; stored as UTC' })),
    gallons: z
      .number()
      .check(
        z.gt(0),
        z.maximum(1000),
        z.meta({ description: 'Gallons bought, more than 0 and at most 1,000' }),
      ),
    price_usd_per_gallon: z
      .optional(z.number().check(z.minimum(1), z.maximum(15)))
      .check(z.meta({ description: 'Posted (pump) price' })),
    discount_usd_per_gallon: z
      .optional(z.number().check(z.minimum(0), z.maximum(5)))
      .check(z.meta({ description: 'Card discount per gallon' })),
    total_usd: z
      .optional(z.number().check(z.minimum(0), z.maximum(100_000)))
      .check(z.meta({ description: 'What the card was charged' })),
    station_id: z.optional(publicId('station')).check(z.meta({ description: 'A catalog station (`stn_`)' })),
    latitude: z.optional(z.number().check(z.minimum(-90), z.maximum(90))),
    longitude: z.optional(z.number().check(z.minimum(-180), z.maximum(180))),
    odometer_miles: z.optional(z.number().check(z.minimum(0), z.maximum(10_000_000))),
    card_transaction_ref: z
      .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(128)))
      .check(
        z.meta({ description: 'Unique per fleet: a reference already recorded is answered `duplicate`' }),
      ),
    merchant_name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  })
  .check(
    z.superRefine((item, ctx) => {
      requireOneVehicleReference(item, ctx);
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
    }),
    z.meta({
      id: 'FuelingItem',
      description:
        'One fuel purchase. Name the vehicle by exactly one of `vehicle_id` or `external_ref`; send `latitude` and `longitude` together; `discount_usd_per_gallon` needs `price_usd_per_gallon` and must not exceed it.',
      // The superRefine above, as JSON Schema (all but the discount bound, which compares two values).
      oneOf: [{ required: ['vehicle_id'] }, { required: ['external_ref'] }],
      dependentRequired: {
        latitude: ['longitude'],
        longitude: ['latitude'],
        discount_usd_per_gallon: ['price_usd_per_gallon'],
      },
    }),
  );

export type FuelingItem = z.infer<typeof fuelingItemSchema>;

/** The envelope only: each item is validated on its own so one bad row never sinks the batch. */
export const fuelingBatchBody = z.strictObject({ fuelings: z.array(z.unknown()).check(z.minLength(1)) });

/**
 * The batch as openapi.json publishes it: the envelope with every item a FuelingItem. Not used to
 * parse (a bad item is rejected on its own, not the batch); more than the item limit is 413.
 */
export const publishedFuelingBatchBody = z
  .strictObject({
    fuelings: z.array(fuelingItemSchema).check(
      z.minLength(1),
      z.maxLength(FUELING_BATCH_LIMITS.maxItems),
      z.meta({
        description: `1–${FUELING_BATCH_LIMITS.maxItems} fuelings. Each is accepted, answered \`duplicate\` or rejected on its own; more than ${FUELING_BATCH_LIMITS.maxItems} items or 1 MB is 413 \`batch_too_large\` for the whole batch.`,
      }),
    ),
  })
  .check(z.meta({ id: 'CreateFuelingsRequest' }));

export const fuelingBatchResult = z
  .object({
    accepted: z.number().check(z.int()),
    rejected: z.number().check(z.int()),
    duplicates: z.number().check(z.int()),
    results: z.array(
      z.object({
        index: z.number().check(z.int(), z.meta({ description: 'Position in the request' })),
        status: z.enum(['accepted', 'rejected', 'duplicate']),
        id: z
          .optional(z.string())
          .check(z.meta({ description: 'The fueling (`fuel_`): new, or the one already recorded' })),
        code: z.optional(z.string()),
        hint: z.optional(z.string()),
        errors: z.optional(z.array(z.object({ field: z.string(), message: z.string() }))),
      }),
    ),
  })
  .check(z.meta({ id: 'FuelingBatchResult' }));

const { positionRadiusMiles, positionWindowMinutes, levelWindowMinutes } = VERIFICATION_POLICY;

/** A reported purchase checked against the vehicle's own data (docs/fuel-programs-and-verification.md). */
export const purchaseVerificationSchema = z
  .object({
    status: z.enum(VERIFICATION_STATUSES).check(
      z.meta({
        description:
          '`verified`: the vehicle’s data confirms the purchase and nothing contradicts it; `flagged`: its data contradicts the purchase (fires `fueling.flagged`); `unverified`: it reported nothing to check against, never a guess',
      }),
    ),
    reasons: z
      .array(
        z.object({
          code: z.enum(VERIFICATION_REASON_CODES),
          detail: z
            .string()
            .check(z.meta({ description: 'A sentence with the figures a fuel manager can check' })),
        }),
      )
      .check(
        z.meta({
          description: `Why: a flagged purchase's flags first, then what was confirmed; a verified one's confirmations; an unverified one's checks that could not be made. \`at_station\`: a breadcrumb within ${positionRadiusMiles} mi of the station within ${positionWindowMinutes} min; \`away_from_station\`: breadcrumbs in that window, all too far to have driven there; \`exceeds_tank_size\` / \`exceeds_room_in_tank\`: more gallons than the tank, or the room in it then; \`level_rose\` / \`no_level_rise\`: the fuel level within ${levelWindowMinutes} min of the purchase; \`no_breadcrumbs_near_time\`, \`no_breadcrumb_at_station\`, \`no_place\`, \`tank_not_checked\`, \`no_fuel_levels\`, \`rise_not_measurable\`: a check that could not be made`,
        }),
      ),
    checked_at: timestamp.check(
      z.meta({
        description:
          'When the verdict was reached: on receipt, or when late breadcrumbs re-checked an `unverified` one (once)',
      }),
    ),
  })
  .check(z.meta({ id: 'PurchaseVerification' }));

export const fuelingSchema = z
  .object({
    id: z.string().check(z.meta({ example: 'fuel_01JD7ZK3M4N5P6Q7R8S9T0V1W2' })),
    vehicle_id: z.string(),
    external_ref: z.nullable(z.string()),
    source: z.enum(['reported', 'detected']),
    fueled_at: timestamp,
    gallons: z.nullable(z.number()),
    price_usd_per_gallon: z.nullable(z.number()),
    discount_usd_per_gallon: z.nullable(z.number()),
    net_price_usd_per_gallon: nullableNumber('price − discount, or total ÷ gallons'),
    total_usd: z.nullable(z.number()),
    state: z
      .nullable(z.string())
      .check(
        z.meta({ description: 'Two-letter state of the station, else of the position; null when unknown' }),
      ),
    state_tax_usd_per_gallon: nullableNumber(
      'The state diesel tax in the pump price at `fueled_at` (the tax table)',
    ),
    fuel_tax_treatment: z.enum(FUEL_TAX_TREATMENTS).check(
      z.meta({
        description:
          'The basis the fill was priced on when recorded: the vehicle’s override, else the fleet’s setting (`pump` for records made before the setting)',
      }),
    ),
    effective_price_usd_per_gallon: nullableNumber(
      'net price − the credited state tax under `ifta`; the net price under `pump`; null without a price',
    ),
    counterfactual: z
      .nullable(
        z.object({
          source: z.enum(COUNTERFACTUAL_SOURCES).check(
            z.meta({
              description:
                '`followed_recommendation`: the stop it followed; `passed_over_recommendation`: the stop standing while it fuelled elsewhere; `own_price`: no recommendation, its own price (routing saving 0)',
            }),
          ),
          pump_price_usd_per_gallon: z.number().check(
            z.meta({
              description: 'Mean posted price − credited tax of the stations the truck could have used',
            }),
          ),
          net_price_usd_per_gallon: z
            .number()
            .check(z.meta({ description: 'The same mean with the fleet’s discounts: the card, no advice' })),
          station_count: z.nullable(z.number().check(z.int())),
        }),
      )
      .check(
        z.meta({ description: 'What the fleet would have paid without our advice; null without a price' }),
      ),
    benchmark_price_usd_per_gallon: z
      .nullable(z.number())
      .check(
        deprecated(
          'The price the fill’s saving is measured against: its counterfactual net price; null without one',
          'counterfactual.net_price_usd_per_gallon',
        ),
      ),
    card_savings_usd: nullableNumber(
      '(counterfactual pump − counterfactual net) × gallons: what the card is worth on the corridor, not counted as a saving',
    ),
    routing_savings_usd: nullableNumber(
      '(counterfactual net − effective price) × gallons: the fill’s saving, what the report sums as savings_usd',
    ),
    station: z.nullable(
      z.object({
        id: z.string(),
        name: z.string(),
        chain: z.string(),
        latitude: z.number(),
        longitude: z.number(),
        address: z.string(),
      }),
    ),
    latitude: z.nullable(z.number()),
    longitude: z.nullable(z.number()),
    odometer_miles: z.nullable(z.number()),
    card_transaction_ref: z.nullable(z.string()),
    merchant_name: z.nullable(z.string()),
    fuel_level_before_percent: z.nullable(z.number()),
    fuel_level_after_percent: z.nullable(z.number()),
    match: z.nullable(
      z.object({
        guidance_id: z.string(),
        trip_id: z.nullable(z.string()),
        stop_id: z.string().check(
          z.meta({
            description: 'The trip fuel stop (`tsp_`) when a trip, else the guidance stop (`gds_`)',
          }),
        ),
        recommended_net_price_usd_per_gallon: z.nullable(z.number()),
      }),
    ),
    linked_fueling_id: z
      .nullable(z.string())
      .check(z.meta({ description: 'The other record of the same fill (reported ↔ detected)' })),
    detected_gallons: nullableNumber('On a reported fueling: what the detection measured'),
    missed_savings_usd: nullableNumber(
      'A fill elsewhere while a recommended stop stood: (effective price − the stop’s effective price) × gallons, never below 0',
    ),
    unmatched_reason: z.nullable(z.enum(UNMATCHED_REASONS)).check(
      z.meta({
        description: `Why the fill matched no recommended stop; null when \`match\` is set. \`no_guidance\`: no stop recommended to the vehicle stood within ${MATCH_WINDOW_HOURS} hours before the fill; \`outside_window\`: the fill was at a station the vehicle was recommended, but not within that window; \`no_position\`: stops were recommended, but the fill names no catalog station and has no position; \`not_at_recommended_station\`: stops were recommended, and the fill was at none of their stations; \`no_stop_due\`: the fill was made elsewhere while only stops further on stood, none yet the stop the truck was heading to (no advice passed over).`,
      }),
    ),
    verification: z.nullable(purchaseVerificationSchema).check(
      z.meta({
        description:
          'A reported purchase checked against the vehicle’s breadcrumbs, tank and fuel levels; null on a detected fill (the vehicle’s own data) and on purchases recorded before verification',
      }),
    ),
    created_at: timestamp,
  })
  .check(z.meta({ id: 'Fueling' }));

const rfc3339 = z.iso.datetime({ offset: true });

const dateOrDateTime = z.string().check(
  z.refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) || rfc3339.safeParse(v).success, {
    message: 'must be a date (YYYY-MM-DD) or an RFC 3339 date-time',
  }),
);

export const listFuelingsQuery = z.object({
  vehicle_id: z.optional(vehicleRef),
  from: z.optional(z.iso.datetime({ offset: true })).check(z.meta({ description: 'fueled_at at or after' })),
  to: z.optional(z.iso.datetime({ offset: true })).check(z.meta({ description: 'fueled_at at or before' })),
  source: z.optional(z.enum(['reported', 'detected'])).check(
    z.meta({
      description:
        'Omitted: each fill once (a detection merged into a reported fueling is listed only with `source=detected`)',
    }),
  ),
  ...pageQuery,
});
export const fuelingPage = pageOf(fuelingSchema, 'FuelingPage');

export const savingsReportQuery = z.object({
  from: z
    .optional(dateOrDateTime)
    .check(z.meta({ description: 'Date or date-time; its UTC day is the first covered' })),
  to: z
    .optional(dateOrDateTime)
    .check(z.meta({ description: 'Date or date-time; its UTC day is the last covered' })),
  vehicle_id: z.optional(vehicleRef),
});

const figures = {
  fuelings: z.number().check(z.int()),
  gallons: z.number(),
  spend_usd: z.number().check(z.meta({ description: 'Cash paid' })),
  effective_spend_usd: z.number().check(z.meta({ description: 'Cash paid − the credited state tax' })),
  counterfactual_spend_usd: z
    .number()
    .check(z.meta({ description: 'Counterfactual net price × gallons: the card, without our advice' })),
  benchmark_spend_usd: z
    .number()
    .check(
      deprecated(
        'The same figure as counterfactual_spend_usd (savings_usd = it − effective_spend_usd)',
        'counterfactual_spend_usd',
      ),
    ),
  card_savings_usd: z.number().check(
    z.meta({
      description: 'What the fleet’s card is worth on the corridor: beside savings_usd, not in it',
    }),
  ),
  routing_savings_usd: z.number().check(z.meta({ description: 'Equal to savings_usd' })),
  savings_usd: z.number().check(
    z.meta({
      description:
        'counterfactual_spend_usd − effective_spend_usd: the saving of where the fleet bought, as a route’s savings.usd',
    }),
  ),
  savings_usd_per_gallon: nullableNumber(
    'savings_usd ÷ the gallons of fills priced against a counterfactual',
  ),
  missed_savings_usd: z.number(),
  recommended_stops: z.number().check(z.int()),
  followed_stops: z.number().check(z.int()),
  fuelings_without_recommendation: z.object({
    total: z.number().check(z.int()),
    by_reason: z.object(
      Object.fromEntries(UNMATCHED_REASONS.map((reason) => [reason, z.number().check(z.int())])) as Record<
        UnmatchedReason,
        z.ZodMiniNumber<number>
      >,
    ),
  }),
  fuel_tax_treatment: z
    .nullable(z.enum(['ifta', 'pump', 'mixed']))
    .check(
      z.meta({ description: 'The basis of the priced fills; `mixed` when they differ; null without one' }),
    ),
};

const programSpend = z.object({
  fills: z.number().check(z.int()),
  gallons: z.number(),
  spend_usd: z.number().check(z.meta({ description: 'Cash paid (pump spend), as the totals’ spend_usd' })),
});

const reportFuelProgram = z.object({
  rule: z
    .enum(FUEL_PROGRAM_RULES)
    .check(z.meta({ description: 'The fleet’s fuel card program rule in force now' })),
  in_program: programSpend.check(
    z.meta({ description: 'Fills at a chain the program accepted when they were recorded' }),
  ),
  off_program: programSpend.check(
    z.meta({ description: 'Fills at a chain the program did not accept when they were recorded' }),
  ),
  unknown: programSpend.check(
    z.meta({ description: 'Fills with no station named, or recorded while the program had no rule' }),
  ),
});

const reportVerification = z.object({
  verified: z.number().check(z.int()),
  unverified: z
    .number()
    .check(z.int(), z.meta({ description: 'Reported purchases the vehicle’s data could not check' })),
  flagged: z.number().check(z.int()),
  not_checked: z
    .number()
    .check(z.int(), z.meta({ description: 'Reported purchases recorded before purchases were checked' })),
  exceptions: z
    .array(
      z.object({
        fueling_id: z.string(),
        vehicle_id: z.string(),
        fueled_at: timestamp,
        gallons: z.nullable(z.number()),
        station_id: z.nullable(z.string()),
        status: z.literal('flagged'),
        reasons: z.array(
          z.object({
            code: z.enum(VERIFICATION_REASON_CODES),
            detail: z.string().check(z.meta({ description: 'A sentence with the figures to check' })),
          }),
        ),
      }),
    )
    .check(z.meta({ description: 'The flagged purchases of the period, newest first, at most 50' })),
  exceptions_truncated: z
    .boolean()
    .check(z.meta({ description: 'More purchases were flagged than `exceptions` lists' })),
});

export const savingsReportSchema = z
  .object({
    period: z.object({
      from: timestamp.check(z.meta({ description: 'Start of the first UTC day covered' })),
      to: timestamp.check(
        z.meta({ description: 'End of the period: start of the UTC day after the last covered (exclusive)' }),
      ),
    }),
    totals: z.object(figures),
    adherence_rate: nullableNumber('followed ÷ recommended; null when nothing was due'),
    vehicles: z.array(
      z.object({
        vehicle_id: z.string(),
        external_ref: z.nullable(z.string()),
        ...figures,
        adherence_rate: z.nullable(z.number()),
      }),
    ),
    fuel_program: reportFuelProgram.check(
      z.meta({ description: 'The period’s fills in and off the fleet’s fuel card program' }),
    ),
    verification: reportVerification.check(
      z.meta({ description: 'The period’s reported purchases checked against their trucks’ own data' }),
    ),
    definitions: z.record(z.string(), z.string()),
    methodology: z.string().check(
      z.meta({
        description:
          'The savings methodology, public text/markdown: the API guide’s `savings-methodology` section answered alone (`/v1/llms.txt?section=savings-methodology`)',
      }),
    ),
  })
  .check(z.meta({ id: 'SavingsReport' }));
