import * as z from 'zod/mini';
import { ID_PREFIXES, type IdKind, isPublicId, publicIdExample } from '#shared/kernel/ids.ts';
import { ERROR_REGISTRY, type ErrorCode } from '#shared/platform/errors.ts';
import { globalIssueMessage } from '#shared/platform/validation/issue-messages.ts';
import { queryInteger } from './query-numbers.ts';

// Every request schema imports this module, so any parse of one (validatePart installs its own,
// richer map per parse) speaks our messages rather than zod's defaults.
z.config({ customError: globalIssueMessage });

/**
 * An id field. A malformed value is reported as 400 `invalid_public_id` (docs/api-guide.md#conventions), not as
 * a validation failure: the validation middleware looks for the `publicId` marker on the issue.
 */
export function publicId(kind: IdKind) {
  return z.string().check(
    z.refine((value) => isPublicId(kind, value), {
      message: `must be a ${ID_PREFIXES[kind]}_ id`,
      params: { publicId: ID_PREFIXES[kind] },
    }),
    z.meta({
      example: publicIdExample(kind),
      pattern: `^${ID_PREFIXES[kind]}_[0-9A-HJKMNP-TV-Z]{26}$`,
      description: `A ${ID_PREFIXES[kind]}_ id.`,
    }),
  );
}

/** A batch row (breadcrumb, fueling) names its vehicle by exactly one of vehicle_id or external_ref. */
export function requireOneVehicleReference(
  item: { vehicle_id?: string | undefined; external_ref?: string | undefined },
  ctx: z.core.$RefinementCtx,
): void {
  if ((item.vehicle_id === undefined) === (item.external_ref === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: ['vehicle_id'],
      message: 'send exactly one of vehicle_id or external_ref',
    });
  }
}

export const EXTERNAL_REF_PREFIX = 'ext:';
export const externalRef = z.string().check(z.trim(), z.minLength(1), z.maxLength(128));

const isExternalRef = (value: string) => externalRef.safeParse(value).success;

/**
 * What to do about a value that is neither a `veh_` id nor `ext:<external_ref>`: most often it is
 * the caller's own reference sent bare (`TRUCK-042`), so the hint spells out the form that works.
 *
 * @example
 * vehicleRefHint('TRUCK-042'); // 'to name a vehicle by its external_ref, prefix it with ext: (ext:TRUCK-042)'
 */
export function vehicleRefHint(value: string): string {
  if (value.startsWith(EXTERNAL_REF_PREFIX)) {
    return 'write the external_ref after ext: (1 to 128 characters), e.g. ext:TRUCK-042';
  }
  // Another kind of id (flt_…, trip_…) or a damaged veh_ id: the prefix is what to check.
  const anId = Object.values(ID_PREFIXES).some((prefix) => value.startsWith(`${prefix}_`));
  if (anId || !isExternalRef(value)) {
    return `check the prefix: a vehicle is named by its ${ID_PREFIXES.vehicle}_ id, or by ext:<external_ref>`;
  }
  return `to name a vehicle by its external_ref, prefix it with ext: (ext:${value.trim()})`;
}

/**
 * Wherever a path or query names a vehicle, the caller's own reference works too, as
 * `ext:<external_ref>` (URL-encoded in paths). Decided form; published in OpenAPI and docs/api-guide.md.
 */
export const vehicleRef = z.string().check(
  z.superRefine((value, ctx) => {
    const byRef = value.startsWith(EXTERNAL_REF_PREFIX);
    if (byRef ? isExternalRef(value.slice(EXTERNAL_REF_PREFIX.length)) : isPublicId('vehicle', value)) return;
    ctx.addIssue({
      code: 'custom',
      message: 'must be a veh_ id or ext:<external_ref>',
      params: { publicId: ID_PREFIXES.vehicle, hint: vehicleRefHint(value) },
    });
  }),
  z.meta({
    description: "A `veh_` id, or `ext:` followed by the vehicle's external_ref (URL-encoded).",
    example: 'ext:TRUCK-042',
  }),
);

export type VehicleRef = { kind: 'id'; id: string } | { kind: 'external_ref'; externalRef: string };

export function parseVehicleRef(value: string): VehicleRef {
  return value.startsWith(EXTERNAL_REF_PREFIX)
    ? { kind: 'external_ref', externalRef: value.slice(EXTERNAL_REF_PREFIX.length).trim() }
    : { kind: 'id', id: value };
}

export const timestamp = z.string().check(
  z.meta({
    format: 'date-time',
    description: 'UTC, six fractional digits',
    example: '2026-11-21T22:26:10.123000Z',
  }),
);

export const PAGE_LIMIT = { default: 25, max: 100 } as const;

export const pageQuery = {
  cursor: z
    .optional(z.string().check(z.minLength(1), z.maxLength(2048)))
    .check(z.meta({ description: 'Opaque cursor from `next_cursor`.' })),
  limit: z
    ._default(queryInteger(1, PAGE_LIMIT.max), PAGE_LIMIT.default)
    .check(z.meta({ description: `Page size; default ${PAGE_LIMIT.default}, at most ${PAGE_LIMIT.max}.` })),
};

/**
 * `z.extend` without the base's metadata. zod/mini keeps `.check(z.meta(…))` as a check, and
 * `z.extend` keeps the checks, so the extended twin would inherit the base's id and description
 * (classic's `.meta()` was not a check, so `.extend` left them behind). Refinements stay.
 */
export function extendWithoutMeta<T extends z.ZodMiniObject, U extends z.core.$ZodLooseShape>(
  schema: T,
  shape: U,
) {
  const checks = (schema._zod.def.checks ?? []).filter(
    (check) => check._zod.def.check !== 'meta' && check._zod.def.check !== 'describe',
  );
  return z.extend(schema.clone({ ...schema._zod.def, checks }), shape);
}

/** The list envelope: `{ data: [...], next_cursor }` (decided names; `null` on the last page). */
export function pageOf<T extends z.core.$ZodType>(item: T, id: string) {
  return z
    .object({
      data: z.array(item),
      next_cursor: z
        .nullable(z.string())
        .check(z.meta({ description: 'Pass as `cursor` for the next page; null at the end.' })),
    })
    .check(z.meta({ id }));
}

/** A response number the server may not know (no price, nothing to divide by): null then, as the description says. */
export function nullableNumber(description: string) {
  return z.nullable(z.number()).check(z.meta({ description }));
}

/** A number limited to [min, max], refused with a message that states the range. */
export function percentBetween(min: number, max: number) {
  const message = `must be a number from ${min} to ${max}`;
  return z
    .number({ error: message })
    .check(z.minimum(min, { error: message }), z.maximum(max, { error: message }));
}

/**
 * `min_arrival_fuel_percent` of a guidance start or a route: optional; when omitted the acting
 * fleet's `default_min_arrival_fuel_percent` applies (10 unless the fleet set another).
 */
export const minArrivalFuelPercentRequest = z.optional(percentBetween(0, 100)).check(
  z.meta({
    description:
      "Fuel (percent of the tank) to arrive with. Omitted: the acting fleet's `default_min_arrival_fuel_percent` (10 unless the fleet set another).",
  }),
);

export const emailAddress = z.email().check(z.maxLength(254));

/** IANA zone names as the runtime's ICU knows them (e.g. `America/Chicago`; `UTC` too). */
export const ianaTimezone = z
  .pipe(
    z
      .string()
      .check(
        z.minLength(1),
        z.maxLength(64),
        z.refine(isIanaTimezone, { message: 'must be an IANA time zone name, e.g. America/Chicago' }),
      ),
    // Stored as the runtime spells it ('america/chicago' → 'America/Chicago'): clients' zone
    // libraries are case-sensitive.
    z.transform(
      (value: string) => new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone,
    ),
  )
  .check(z.meta({ example: 'America/Chicago' }));

const knownZones = new Set(Intl.supportedValuesOf('timeZone'));

function isIanaTimezone(value: string): boolean {
  if (knownZones.has(value) || value === 'UTC') return true;
  // supportedValuesOf lists canonical names only; accept aliases ICU resolves (e.g. US/Central)
  // but not offsets like "+05:00", which are not zone names.
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** One offending field of a 422 or of a rejected batch item (docs/validation.md). */
export const fieldErrorSchema = z
  .object({
    field: z
      .string()
      .check(z.meta({ description: 'Dotted path, e.g. `destination.latitude`', example: 'latitude' })),
    message: z.string().check(z.meta({ example: 'must be between -90 and 90 degrees' })),
  })
  .check(z.meta({ id: 'FieldError' }));

export const problemSchema = z
  .object({
    type: z
      .string()
      .check(z.meta({ description: '`<base_url>/v1/errors#<code>`: the registry entry of the code' })),
    title: z.string().check(z.meta({ description: 'Short stable summary of the code' })),
    status: z.number().check(z.int()),
    code: z
      .enum(Object.keys(ERROR_REGISTRY) as [ErrorCode, ...ErrorCode[]])
      .check(z.meta({ description: 'Stable machine code; branch on this' })),
    detail: z.string().check(z.meta({ description: 'What went wrong in this occurrence' })),
    hint: z.string().check(z.meta({ description: 'The concrete next step' })),
    request_id: z.string().check(z.meta({ example: 'req_01JD7ZK3M4N5P6Q7R8S9T0V1W2' })),
    errors: z.optional(z.array(fieldErrorSchema)).check(
      z.meta({
        description: 'On validation_failed: the offending fields, at most 50 (see errors_truncated)',
      }),
    ),
    errors_truncated: z
      .optional(z.boolean())
      .check(z.meta({ description: 'Present and true when more problems were found than `errors` lists' })),
    error_count: z
      .optional(z.number().check(z.int()))
      .check(z.meta({ description: 'With errors_truncated: how many problems were found in all' })),
    required_scope: z.optional(z.string()),
    allowed_methods: z
      .optional(z.array(z.string()))
      .check(
        z.meta({ description: 'On method_not_allowed: the methods the path accepts (also in `Allow`)' }),
      ),
    limit: z.optional(z.number()),
    used: z.optional(z.number()),
    retry_after: z.optional(z.number()),
    cool_down_until: z.optional(z.string()).check(
      z.meta({
        description: 'On enumeration_suspected: when the key may query stations again (also in `hint`)',
      }),
    ),
  })
  .check(z.meta({ id: 'Problem', description: 'RFC 9457 problem details (application/problem+json).' }));

/** A caller's optional free-text reason for an action (skip a stop, cancel a trip): 1–200 characters. */
export const optionalReason = (description: string) =>
  z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))).check(z.meta({ description }));
