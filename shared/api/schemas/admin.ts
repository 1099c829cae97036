import * as z from 'zod';
import { type EndpointFamily, SCOPES } from '../../domain/access.ts';
import type { Plan } from '../../domain/plans.ts';
import type { EnumerationGuardSettings } from '../../domain/stations/enumeration-guard.ts';
import { ID_PREFIXES, isPublicId, publicIdExample } from '../../platform/ids.ts';
import { emailAddress, ianaTimezone, pageOf, pageQuery, publicId, timestamp } from './common.ts';

// The operator API's request and answer shapes (/admin/v1/…, shared/api/admin-routes.ts).

/** Every endpoint family, as a Record so a new family does not compile until it is listed here. */
const FAMILY_NAMES: Record<EndpointFamily, true> = {
  fleets: true,
  vehicles: true,
  locations: true,
  guidance: true,
  stations: true,
  routes: true,
  trips: true,
  fuelings: true,
  reports: true,
  webhooks: true,
  integration: true,
  sandbox: true,
};
export const ENDPOINT_FAMILIES = Object.keys(FAMILY_NAMES) as EndpointFamily[];

const accountName = z.string().trim().min(1).max(200).meta({ example: 'Acme Freight' });
const keyName = z.string().trim().min(1).max(100).meta({ example: 'Dispatch integration' });
/** A decision's or a revocation's reason: required, shown to the customer, kept in the audit trail. */
const requiredReason = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .meta({ description: 'Why; the customer sees it (e.g. in `key_revoked` details).' });

/** Plan names are path segments and item keys: lowercase letters, digits and dashes. */
export const planName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, { message: 'must be 1–40 lowercase letters, digits or dashes' })
  .meta({ example: 'growth' });

/** A `ptr_` or a `cmp_` id: the two kinds of account. */
export const accountId = z
  .string()
  .refine((value) => isPublicId('partner', value) || isPublicId('company', value), {
    message: `must be a ${ID_PREFIXES.partner}_ or ${ID_PREFIXES.company}_ id`,
    params: { publicId: `${ID_PREFIXES.partner}_ or ${ID_PREFIXES.company}` },
  })
  .meta({ example: publicIdExample('company'), description: 'A ptr_ (partner) or cmp_ (company) id.' });

export const createPartnerBody = z
  .strictObject({ name: accountName, contact_email: emailAddress })
  .meta({ id: 'CreatePartnerRequest' });

export const createCompanyBody = z
  .strictObject({ name: accountName, timezone: ianaTimezone, contact_email: emailAddress })
  .meta({ id: 'CreateCompanyRequest' });

export const productionAccessQuery = z.object({
  status: z
    .enum(['pending', 'approved', 'denied', 'revoked'])
    .default('pending')
    .meta({ description: 'Requests in this state, oldest first; default `pending`.' }),
  ...pageQuery,
});

export const productionAccessParams = z.object({ id: publicId('productionAccess') });
export const approveBody = z.strictObject({ plan: planName }).meta({ id: 'ApproveProductionAccessRequest' });
export const reasonBody = z.strictObject({ reason: requiredReason }).meta({ id: 'ReasonRequest' });

export const createKeyBody = z
  .strictObject({
    owner_type: z.enum(['partner', 'company']),
    partner_id: z.optional(publicId('partner')).meta({ description: 'With owner_type `partner`.' }),
    company_id: z.optional(publicId('company')).meta({ description: 'With owner_type `company`.' }),
    plan: planName,
    scopes: z.array(z.enum(SCOPES)).min(1).max(SCOPES.length),
    name: keyName,
    mode: z.enum(['live', 'test']),
    expires_at: z.iso
      .datetime({ offset: true })
      .nullable()
      .optional()
      .meta({ description: 'When the key stops working; omitted or null: never.' }),
  })
  .superRefine((body, context) => {
    // The account named must be the owner type's: one of the two ids, never both.
    const wanted = body.owner_type === 'partner' ? 'partner_id' : 'company_id';
    const other = body.owner_type === 'partner' ? 'company_id' : 'partner_id';
    if (body[wanted] === undefined) {
      context.addIssue({
        code: 'custom',
        path: [wanted],
        message: `is required with owner_type ${body.owner_type}`,
      });
    }
    if (body[other] !== undefined) {
      context.addIssue({
        code: 'custom',
        path: [other],
        message: `is not allowed with owner_type ${body.owner_type}`,
      });
    }
  })
  .meta({ id: 'OperatorCreateKeyRequest' });

export const keyParams = z.object({ id: publicId('apiKey') });

const count = (max: number) => z.number().int().min(0).max(max);

/**
 * The most cells or areas a plan's guard may allow in its window: far beyond any fleet's honest
 * use (docs/enumeration-and-finance.md), and it bounds what the window item must hold.
 */
const MAX_GUARD_CELLS = 600;

export const enumerationGuardBody = z
  .strictObject({
    window_minutes: z.number().int().min(1).max(1440).optional(),
    lattice_min_cells: z.number().int().min(2).max(MAX_GUARD_CELLS).optional(),
    max_distinct_cells: z.number().int().min(2).max(MAX_GUARD_CELLS).optional(),
    max_area_cells: z.number().int().min(2).max(MAX_GUARD_CELLS).optional(),
    fleet_radius_miles: z.number().min(1).max(3000).optional(),
    far_share: z.number().min(0).max(1).optional(),
    cool_down_minutes: z.number().int().min(1).max(10_080).optional(),
  })
  .meta({
    id: 'EnumerationGuardSettings',
    description: `Thresholds of the enumeration guard (docs/limits.md); unset ones take the defaults. Cells and areas at most ${MAX_GUARD_CELLS}.`,
  });

export const planParams = z.object({ name: planName });

export const putPlanBody = z
  .strictObject({
    rate_limit_per_min: z.number().int().min(1).max(1_000_000),
    monthly_quota: z
      .strictObject(
        Object.fromEntries(ENDPOINT_FAMILIES.map((family) => [family, count(1_000_000_000).optional()])),
      )
      .meta({
        description: 'Requests per calendar month (UTC) by endpoint family; a family left out is unlimited.',
      }),
    station_query_budget: count(10_000_000_000).meta({
      description: 'Stations returned per calendar month.',
    }),
    max_station_results: z
      .number()
      .int()
      .min(1)
      .max(25)
      .meta({ description: 'Most stations one price query returns (spec section 8: 1–25).' }),
    enumeration_guard: enumerationGuardBody.optional(),
  })
  .meta({ id: 'PutPlanRequest' });

export const accountParams = z.object({ id: accountId });
export const setAccountPlanBody = z.strictObject({ plan: planName }).meta({ id: 'SetAccountPlanRequest' });

export const auditQuery = z.object({
  account_id: accountId.optional().meta({ description: "Only this account's entries." }),
  ...pageQuery,
});

// Answers.

export const apiKeySchema = z
  .object({
    object: z.literal('api_key'),
    id: z.string().meta({ example: publicIdExample('apiKey') }),
    name: z.string(),
    owner_type: z.enum(['partner', 'company']),
    account_id: z.string(),
    mode: z.enum(['live', 'test']),
    scopes: z.array(z.enum(SCOPES)),
    status: z.enum(['active', 'suspended', 'revoked']),
    plan: z.string(),
    fleet_id: z.string().nullable().meta({ description: "A company key's fleet (live or sandbox twin)" }),
    created_at: timestamp,
    expires_at: z.nullable(timestamp),
    last_used_at: z.nullable(timestamp),
    revoked_reason: z.string().nullable(),
  })
  .meta({ id: 'OperatorApiKey' });

export const apiKeyWithSecretSchema = apiKeySchema
  .extend({ secret: z.string().meta({ description: 'Shown once; only its SHA-256 is stored.' }) })
  .meta({ id: 'OperatorApiKeyWithSecret' });

export const accountSchema = z
  .object({
    object: z.enum(['partner', 'company']),
    id: z.string().meta({ example: publicIdExample('company') }),
    name: z.string(),
    contact_email: z.string().nullable(),
    timezone: z.string().nullable(),
    plan: z.string(),
    live_fleet_id: z.string().nullable(),
    sandbox_fleet_id: z.string().nullable(),
    production_access: z.object({
      status: z.enum(['none', 'pending', 'approved', 'denied', 'revoked']),
      request_id: z.string().nullable(),
      reason: z.string().nullable(),
      decided_at: z.nullable(timestamp),
    }),
    created_at: timestamp,
  })
  .meta({ id: 'Account' });

export const onboardedAccountSchema = z.object({ account: accountSchema, key: apiKeyWithSecretSchema }).meta({
  id: 'OnboardedAccount',
  description: 'The new account and its first owner key (secret shown once).',
});

export const productionAccessRequestSchema = z
  .object({
    object: z.literal('production_access_request'),
    id: z.string().meta({ example: publicIdExample('productionAccess') }),
    account_id: z.string(),
    status: z.enum(['pending', 'approved', 'denied', 'revoked']),
    use_case: z.string(),
    expected_vehicles: z.number().int(),
    contact_email: z.string(),
    requested_at: timestamp,
    requested_by: z.string().meta({ description: 'The key that asked' }),
    decided_at: z.nullable(timestamp),
    decided_by: z.string().nullable(),
    plan: z.string().nullable(),
    reason: z.string().nullable(),
  })
  .meta({ id: 'ProductionAccessRequest' });

export const productionAccessPage = pageOf(productionAccessRequestSchema, 'ProductionAccessRequestPage');

export const planSchema = z
  .object({
    object: z.literal('plan'),
    name: z.string(),
    rate_limit_per_min: z.number().int(),
    monthly_quota: z.record(z.string(), z.number().int()),
    station_query_budget: z.number().int(),
    max_station_results: z.number().int(),
    enumeration_guard: z.record(z.string(), z.number()),
  })
  .meta({ id: 'Plan' });

export const planList = z.object({ data: z.array(planSchema) }).meta({ id: 'PlanList' });

export const accountPlanSchema = z
  .object({
    account: accountSchema,
    keys_moved: z.number().int().meta({ description: 'Keys of the account now on the plan' }),
  })
  .meta({ id: 'AccountPlanChange' });

export const auditEntrySchema = z
  .object({
    object: z.literal('audit_entry'),
    id: z.string().meta({ example: publicIdExample('auditEntry') }),
    at: timestamp,
    actor: z.object({
      type: z.enum(['operator', 'key']),
      id: z.string().meta({ description: 'The operator (IAM ARN, or the local token) or the owner key' }),
    }),
    action: z.string().meta({ example: 'production_access.approved' }),
    account_id: z.string().nullable(),
    target: z.object({ type: z.enum(['key', 'account', 'production_access', 'plan']), id: z.string() }),
    reason: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEntry' });

export const auditPage = pageOf(auditEntrySchema, 'AuditEntryPage');

/** The plan a PUT body describes, in the domain's terms (`max_station_results` is the price-query cap). */
export function planOf(name: string, body: z.output<typeof putPlanBody>): Plan {
  const guard = body.enumeration_guard;
  const enumerationGuard: Partial<EnumerationGuardSettings> = {
    ...(guard?.window_minutes !== undefined ? { windowMinutes: guard.window_minutes } : {}),
    ...(guard?.lattice_min_cells !== undefined ? { latticeMinCells: guard.lattice_min_cells } : {}),
    ...(guard?.max_distinct_cells !== undefined ? { maxDistinctCells: guard.max_distinct_cells } : {}),
    ...(guard?.max_area_cells !== undefined ? { maxAreaCells: guard.max_area_cells } : {}),
    ...(guard?.fleet_radius_miles !== undefined ? { fleetRadiusMiles: guard.fleet_radius_miles } : {}),
    ...(guard?.far_share !== undefined ? { farShare: guard.far_share } : {}),
    ...(guard?.cool_down_minutes !== undefined ? { coolDownMinutes: guard.cool_down_minutes } : {}),
  };
  return {
    name,
    rateLimitPerMin: body.rate_limit_per_min,
    monthlyQuota: Object.fromEntries(
      Object.entries(body.monthly_quota).filter((entry): entry is [string, number] => entry[1] !== undefined),
    ) as Plan['monthlyQuota'],
    stationQueryBudget: body.station_query_budget,
    priceQueryCap: body.max_station_results,
    ...(Object.keys(enumerationGuard).length > 0 ? { enumerationGuard } : {}),
  };
}
