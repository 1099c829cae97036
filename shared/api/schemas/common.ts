import * as z from 'zod';
import { ERROR_REGISTRY, type ErrorCode } from '../../platform/errors.ts';
import { globalIssueMessage } from '../../platform/http/issue-messages.ts';
import { ID_PREFIXES, type IdKind, isPublicId, publicIdExample } from '../../platform/ids.ts';

// Every request schema imports this module, so any parse of one (validatePart installs its own,
// richer map per parse) speaks our messages rather than zod's defaults.
z.config({ customError: globalIssueMessage });

/**
 * An id field. A malformed value is reported as 400 `invalid_public_id` (spec section 2), not as
 * a validation failure: the validation middleware looks for the `publicId` marker on the issue.
 */
export function publicId(kind: IdKind) {
  return z
    .string()
    .refine((value) => isPublicId(kind, value), {
      message: `must be a ${ID_PREFIXES[kind]}_ id`,
      params: { publicId: ID_PREFIXES[kind] },
    })
    .meta({
      example: publicIdExample(kind),
      pattern: `^${ID_PREFIXES[kind]}_[0-9A-HJKMNP-TV-Z]{26}$`,
      description: `A ${ID_PREFIXES[kind]}_ id.`,
    });
}

export const EXTERNAL_REF_PREFIX = 'ext:';
export const externalRef = z.string().trim().min(1).max(128);

/**
 * Wherever a path or query names a vehicle, the caller's own reference works too, as
 * `ext:<external_ref>` (URL-encoded in paths). Decided form; published in OpenAPI and docs/api-guide.md.
 */
export const vehicleRef = z
  .string()
  .refine(
    (value) =>
      isPublicId('vehicle', value) ||
      (value.startsWith(EXTERNAL_REF_PREFIX) && externalRef.safeParse(value.slice(4)).success),
    {
      message: 'must be a veh_ id or ext:<external_ref>',
      params: { publicId: ID_PREFIXES.vehicle },
    },
  )
  .meta({
    description: "A `veh_` id, or `ext:` followed by the vehicle's external_ref (URL-encoded).",
    example: 'ext:TRUCK-042',
  });

export type VehicleRef = { kind: 'id'; id: string } | { kind: 'external_ref'; externalRef: string };

export function parseVehicleRef(value: string): VehicleRef {
  return value.startsWith(EXTERNAL_REF_PREFIX)
    ? { kind: 'external_ref', externalRef: value.slice(EXTERNAL_REF_PREFIX.length).trim() }
    : { kind: 'id', id: value };
}

export const timestamp = z.string().meta({
  format: 'date-time',
  description: 'UTC, six fractional digits',
  example: '2026-11-21T22:26:10.123000Z',
});

export const PAGE_LIMIT = { default: 25, max: 100 } as const;

export const pageQuery = {
  cursor: z.string().min(1).max(2048).optional().meta({ description: 'Opaque cursor from `next_cursor`.' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(PAGE_LIMIT.max)
    .default(PAGE_LIMIT.default)
    .meta({ description: `Page size; default ${PAGE_LIMIT.default}, at most ${PAGE_LIMIT.max}.` }),
};

/** The list envelope: `{ data: [...], next_cursor }` (decided names; `null` on the last page). */
export function pageOf<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      data: z.array(item),
      next_cursor: z
        .string()
        .nullable()
        .meta({ description: 'Pass as `cursor` for the next page; null at the end.' }),
    })
    .meta({ id });
}

/** A number limited to [min, max], refused with a message that states the range. */
export function percentBetween(min: number, max: number) {
  const message = `must be a number from ${min} to ${max}`;
  return z.number({ error: message }).min(min, { error: message }).max(max, { error: message });
}

/**
 * `min_arrival_fuel_percent` of a guidance start or a route: optional; when omitted the acting
 * fleet's `default_min_arrival_fuel_percent` applies (10 unless the fleet set another).
 */
export const minArrivalFuelPercentRequest = percentBetween(0, 100).optional().meta({
  description:
    "Fuel (percent of the tank) to arrive with. Omitted: the acting fleet's `default_min_arrival_fuel_percent` (10 unless the fleet set another).",
});

export const emailAddress = z.email().max(254);

/** IANA zone names as the runtime's ICU knows them (e.g. `America/Chicago`; `UTC` too). */
export const ianaTimezone = z
  .string()
  .min(1)
  .max(64)
  .refine(isIanaTimezone, { message: 'must be an IANA time zone name, e.g. America/Chicago' })
  // Stored as the runtime spells it ('america/chicago' → 'America/Chicago'): clients' zone
  // libraries are case-sensitive.
  .transform((value) => new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone)
  .meta({ example: 'America/Chicago' });

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

/** One offending field of a 422 or of a rejected batch item (spec section 7). */
export const fieldErrorSchema = z
  .object({
    field: z.string().meta({ description: 'Dotted path, e.g. `destination.latitude`', example: 'latitude' }),
    message: z.string().meta({ example: 'must be between -90 and 90 degrees' }),
  })
  .meta({ id: 'FieldError' });

export const problemSchema = z
  .object({
    type: z.string().meta({ description: '`<base_url>/v1/errors#<code>`: the registry entry of the code' }),
    title: z.string().meta({ description: 'Short stable summary of the code' }),
    status: z.number().int(),
    code: z.enum(Object.keys(ERROR_REGISTRY) as [ErrorCode, ...ErrorCode[]]).meta({
      description: 'Stable machine code; branch on this',
    }),
    detail: z.string().meta({ description: 'What went wrong in this occurrence' }),
    hint: z.string().meta({ description: 'The concrete next step' }),
    request_id: z.string().meta({ example: 'req_01JD7ZK3M4N5P6Q7R8S9T0V1W2' }),
    errors: z.array(fieldErrorSchema).optional().meta({
      description: 'On validation_failed: the offending fields, at most 50 (see errors_truncated)',
    }),
    errors_truncated: z
      .boolean()
      .optional()
      .meta({ description: 'Present and true when more problems were found than `errors` lists' }),
    error_count: z
      .number()
      .int()
      .optional()
      .meta({ description: 'With errors_truncated: how many problems were found in all' }),
    required_scope: z.string().optional(),
    allowed_methods: z
      .array(z.string())
      .optional()
      .meta({ description: 'On method_not_allowed: the methods the path accepts (also in `Allow`)' }),
    limit: z.number().optional(),
    used: z.number().optional(),
    retry_after: z.number().optional(),
    cool_down_until: z.string().optional().meta({
      description: 'On enumeration_suspected: when the key may query stations again (also in `hint`)',
    }),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details (application/problem+json).' });

/** A caller's optional free-text reason for an action (skip a stop, cancel a trip): 1–200 characters. */
export const optionalReason = (description: string) =>
  z.string().trim().min(1).max(200).optional().meta({ description });
