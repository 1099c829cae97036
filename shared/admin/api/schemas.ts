import * as z from 'zod/mini';
import {
  emailAddress,
  extendWithoutMeta,
  ianaTimezone,
  nullableNumber,
  pageOf,
  pageQuery,
  publicId,
  timestamp,
} from '#shared/api/common-schemas.ts';
import { MAX_USD_PER_GALLON, TAX_JURISDICTIONS } from '#shared/fuel-tax/domain/rate-table.ts';
import { type EndpointFamily, SCOPES } from '#shared/kernel/access.ts';
import { ID_PREFIXES, isPublicId, publicIdExample } from '#shared/kernel/ids.ts';
import type { Plan } from '#shared/plans/domain/plans.ts';
import type { EnumerationGuardSettings } from '#shared/stations/domain/enumeration-guard.ts';

// The operator API's request and answer shapes (/admin/v1/…, shared/admin/api/operations.ts).

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

const accountName = z
  .string()
  .check(z.trim(), z.minLength(1), z.maxLength(200), z.meta({ example: 'Acme Freight' }));
const keyName = z
  .string()
  .check(z.trim(), z.minLength(1), z.maxLength(100), z.meta({ example: 'Dispatch integration' }));
/** A decision's or a revocation's reason: required, shown to the customer, kept in the audit trail. */
const requiredReason = z
  .string()
  .check(
    z.trim(),
    z.minLength(1),
    z.maxLength(500),
    z.meta({ description: 'Why; the customer sees it (e.g. in `key_revoked` details).' }),
  );

/** Plan names are path segments and item keys: lowercase letters, digits and dashes. */
export const planName = z
  .string()
  .check(
    z.regex(/^[a-z0-9][a-z0-9-]{0,39}$/, { message: 'must be 1–40 lowercase letters, digits or dashes' }),
    z.meta({ example: 'growth' }),
  );

/** A `ptr_` or a `cmp_` id: the two kinds of account. */
export const accountId = z.string().check(
  z.refine((value) => isPublicId('partner', value) || isPublicId('company', value), {
    message: `must be a ${ID_PREFIXES.partner}_ or ${ID_PREFIXES.company}_ id`,
    params: { publicId: `${ID_PREFIXES.partner}_ or ${ID_PREFIXES.company}` },
  }),
  z.meta({ example: publicIdExample('company'), description: 'A ptr_ (partner) or cmp_ (company) id.' }),
);

export const createPartnerBody = z
  .strictObject({ name: accountName, contact_email: emailAddress })
  .check(z.meta({ id: 'CreatePartnerRequest' }));

export const createCompanyBody = z
  .strictObject({ name: accountName, timezone: ianaTimezone, contact_email: emailAddress })
  .check(z.meta({ id: 'CreateCompanyRequest' }));

export const productionAccessQuery = z.object({
  status: z
    ._default(z.enum(['pending', 'approved', 'denied', 'revoked']), 'pending')
    .check(z.meta({ description: 'Requests in this state, oldest first; default `pending`.' })),
  ...pageQuery,
});

export const productionAccessParams = z.object({ id: publicId('productionAccess') });
export const approveBody = z
  .strictObject({ plan: planName })
  .check(z.meta({ id: 'ApproveProductionAccessRequest' }));
export const reasonBody = z.strictObject({ reason: requiredReason }).check(z.meta({ id: 'ReasonRequest' }));

export const createKeyBody = z
  .strictObject({
    owner_type: z.enum(['partner', 'company']),
    partner_id: z.optional(publicId('partner')).check(z.meta({ description: 'With owner_type `partner`.' })),
    company_id: z.optional(publicId('company')).check(z.meta({ description: 'With owner_type `company`.' })),
    plan: planName,
    scopes: z.array(z.enum(SCOPES)).check(z.minLength(1), z.maxLength(SCOPES.length)),
    name: keyName,
    mode: z.enum(['live', 'test']),
    expires_at: z
      .optional(z.nullable(z.iso.datetime({ offset: true })))
      .check(z.meta({ description: 'When the key stops working; omitted or null: never.' })),
  })
  .check(
    z.superRefine((body, context) => {
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
    }),
    z.meta({ id: 'OperatorCreateKeyRequest' }),
  );

export const keyParams = z.object({ id: publicId('apiKey') });

const count = (max: number) => z.number().check(z.int(), z.minimum(0), z.maximum(max));
const wholeNumber = (min: number, max: number) => z.number().check(z.int(), z.minimum(min), z.maximum(max));

/**
 * The most cells or areas a plan's guard may allow in its window: far beyond any fleet's honest
 * use (docs/enumeration-and-finance.md), and it bounds what the window item must hold.
 */
const MAX_GUARD_CELLS = 600;

export const enumerationGuardBody = z
  .strictObject({
    window_minutes: z.optional(wholeNumber(1, 1440)),
    lattice_min_cells: z.optional(wholeNumber(2, MAX_GUARD_CELLS)),
    max_distinct_cells: z.optional(wholeNumber(2, MAX_GUARD_CELLS)),
    max_area_cells: z.optional(wholeNumber(2, MAX_GUARD_CELLS)),
    fleet_radius_miles: z.optional(z.number().check(z.minimum(1), z.maximum(3000))),
    far_share: z.optional(z.number().check(z.minimum(0), z.maximum(1))),
    cool_down_minutes: z.optional(wholeNumber(1, 10_080)),
  })
  .check(
    z.meta({
      id: 'EnumerationGuardSettings',
      description: `Thresholds of the enumeration guard (docs/limits.md); unset ones take the defaults. Cells and areas at most ${MAX_GUARD_CELLS}.`,
    }),
  );

export const planParams = z.object({ name: planName });

export const putPlanBody = z
  .strictObject({
    rate_limit_per_min: wholeNumber(1, 1_000_000),
    monthly_quota: z
      .strictObject(
        Object.fromEntries(ENDPOINT_FAMILIES.map((family) => [family, z.optional(count(1_000_000_000))])),
      )
      .check(
        z.meta({
          description:
            'Requests per calendar month (UTC) by endpoint family; a family left out is unlimited.',
        }),
      ),
    station_query_budget: count(10_000_000_000).check(
      z.meta({ description: 'Stations returned per calendar month.' }),
    ),
    max_station_results: wholeNumber(1, 25).check(
      z.meta({ description: 'Most stations one price query returns (spec section 8: 1–25).' }),
    ),
    enumeration_guard: z.optional(enumerationGuardBody),
  })
  .check(z.meta({ id: 'PutPlanRequest' }));

export const accountParams = z.object({ id: accountId });
export const setAccountPlanBody = z
  .strictObject({ plan: planName })
  .check(z.meta({ id: 'SetAccountPlanRequest' }));

export const auditQuery = z.object({
  account_id: z.optional(accountId).check(z.meta({ description: "Only this account's entries." })),
  ...pageQuery,
});

// Answers.

export const apiKeySchema = z
  .object({
    object: z.literal('api_key'),
    id: z.string().check(z.meta({ example: publicIdExample('apiKey') })),
    name: z.string(),
    owner_type: z.enum(['partner', 'company']),
    account_id: z.string(),
    mode: z.enum(['live', 'test']),
    scopes: z.array(z.enum(SCOPES)),
    status: z.enum(['active', 'suspended', 'revoked']),
    plan: z.string(),
    fleet_id: z
      .nullable(z.string())
      .check(z.meta({ description: "A company key's fleet (live or sandbox twin)" })),
    created_at: timestamp,
    expires_at: z.nullable(timestamp),
    last_used_at: z.nullable(timestamp),
    revoked_reason: z.nullable(z.string()),
  })
  .check(z.meta({ id: 'OperatorApiKey' }));

export const apiKeyWithSecretSchema = extendWithoutMeta(apiKeySchema, {
  secret: z.string().check(z.meta({ description: 'Shown once; only its SHA-256 is stored.' })),
}).check(z.meta({ id: 'OperatorApiKeyWithSecret' }));

export const accountSchema = z
  .object({
    object: z.enum(['partner', 'company']),
    id: z.string().check(z.meta({ example: publicIdExample('company') })),
    name: z.string(),
    contact_email: z.nullable(z.string()),
    timezone: z.nullable(z.string()),
    plan: z.string(),
    live_fleet_id: z.nullable(z.string()),
    sandbox_fleet_id: z.nullable(z.string()),
    production_access: z.object({
      status: z.enum(['none', 'pending', 'approved', 'denied', 'revoked']),
      request_id: z.nullable(z.string()),
      reason: z.nullable(z.string()),
      decided_at: z.nullable(timestamp),
    }),
    created_at: timestamp,
  })
  .check(z.meta({ id: 'Account' }));

export const onboardedAccountSchema = z.object({ account: accountSchema, key: apiKeyWithSecretSchema }).check(
  z.meta({
    id: 'OnboardedAccount',
    description: 'The new account and its first owner key (secret shown once).',
  }),
);

export const productionAccessRequestSchema = z
  .object({
    object: z.literal('production_access_request'),
    id: z.string().check(z.meta({ example: publicIdExample('productionAccess') })),
    account_id: z.string(),
    status: z.enum(['pending', 'approved', 'denied', 'revoked']),
    use_case: z.string(),
    expected_vehicles: z.number().check(z.int()),
    contact_email: z.string(),
    requested_at: timestamp,
    requested_by: z.string().check(z.meta({ description: 'The key that asked' })),
    decided_at: z.nullable(timestamp),
    decided_by: z.nullable(z.string()),
    plan: z.nullable(z.string()),
    reason: z.nullable(z.string()),
  })
  .check(z.meta({ id: 'ProductionAccessRequest' }));

export const productionAccessPage = pageOf(productionAccessRequestSchema, 'ProductionAccessRequestPage');

export const planSchema = z
  .object({
    object: z.literal('plan'),
    name: z.string(),
    rate_limit_per_min: z.number().check(z.int()),
    monthly_quota: z.record(z.string(), z.number().check(z.int())),
    station_query_budget: z.number().check(z.int()),
    max_station_results: z.number().check(z.int()),
    enumeration_guard: z.record(z.string(), z.number()),
  })
  .check(z.meta({ id: 'Plan' }));

export const planList = z.object({ data: z.array(planSchema) }).check(z.meta({ id: 'PlanList' }));

export const accountPlanSchema = z
  .object({
    account: accountSchema,
    keys_moved: z.number().check(z.int(), z.meta({ description: 'Keys of the account now on the plan' })),
  })
  .check(z.meta({ id: 'AccountPlanChange' }));

/** One fact of an audit entry (shared/accounts/domain/audit.ts, AuditDetail). */
const auditDetail = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.string()),
  z.record(z.string(), z.optional(z.number())),
]);

export const auditEntrySchema = z
  .object({
    object: z.literal('audit_entry'),
    id: z.string().check(z.meta({ example: publicIdExample('auditEntry') })),
    at: timestamp,
    actor: z.object({
      type: z.enum(['operator', 'key']),
      id: z
        .string()
        .check(z.meta({ description: 'The operator (IAM ARN, or the local token) or the owner key' })),
    }),
    action: z.string().check(z.meta({ example: 'production_access.approved' })),
    account_id: z.nullable(z.string()),
    target: z.object({
      type: z.enum(['key', 'account', 'production_access', 'plan', 'fuel_tax_rate']),
      id: z.string(),
    }),
    reason: z.nullable(z.string()),
    details: z.record(z.string(), auditDetail).check(
      z.meta({
        description:
          'Facts of the action, by name: a value, a list (the scopes granted) or a table of numbers (a plan’s monthly quotas)',
      }),
    ),
  })
  .check(z.meta({ id: 'AuditEntry' }));

export const auditPage = pageOf(auditEntrySchema, 'AuditEntryPage');

/** A jurisdiction of the tax table as a path segment: two letters, any case (`pa` is PA). */
const taxJurisdiction = z.string().check(
  z.trim(),
  z.toUpperCase(),
  z.refine((value) => TAX_JURISDICTIONS.includes(value), {
    message: 'must be one of the 48 contiguous states or DC, as its two-letter code (e.g. PA)',
  }),
  z.meta({ example: 'PA', description: 'Two-letter code of one of the 48 contiguous states or DC.' }),
);

const rateMessage = `must be a number from 0 to ${MAX_USD_PER_GALLON} USD per gallon, with at most 4 decimals (e.g. 0.2975)`;
const hasAtMostFourDecimals = (value: number) => Math.abs(value * 10_000 - Math.round(value * 10_000)) < 1e-6;
const taxUsdPerGallon = z.number({ error: rateMessage }).check(
  z.minimum(0, { error: rateMessage }),
  z.maximum(MAX_USD_PER_GALLON, { error: rateMessage }),
  z.refine(hasAtMostFourDecimals, { message: rateMessage }),
  z.meta({
    example: 0.785,
    description:
      'The state diesel tax IFTA credits, USD per gallon (excise plus the per-gallon surcharges IFTA reports); the federal tax is not included',
  }),
);

const taxQuarter = z
  .string()
  .check(
    z.regex(/^\d{4}-Q[1-4]$/, { message: 'must be a quarter as YYYY-Qn, e.g. 2026-Q1' }),
    z.meta({ example: '2027-Q1', description: 'The quarter (UTC) from which the rate applies, `YYYY-Qn`.' }),
  );

export const fuelTaxRateParams = z.object({ state: taxJurisdiction });

export const putFuelTaxRateBody = z
  .strictObject({
    usd_per_gallon: taxUsdPerGallon,
    effective_from: taxQuarter.check(
      z.meta({
        description:
          'The quarter from which the rate applies, `YYYY-Qn`: the current one, a past one (a correction) or at most 4 quarters ahead',
      }),
    ),
  })
  .check(z.meta({ id: 'PutFuelTaxRateRequest' }));

export const fuelTaxRateSchema = z
  .object({
    object: z.literal('fuel_tax_rate'),
    state: z.string().check(z.meta({ example: 'PA' })),
    usd_per_gallon: z.number(),
    effective_from: z.string().check(z.meta({ example: '2025-Q4' })),
    source: z.enum(['shipped', 'operator']).check(
      z.meta({
        description:
          '`shipped`: the table the service ships with; `operator`: stored with PUT /admin/v1/fuel-tax-rates/{state}',
      }),
    ),
    updated_at: z
      .nullable(timestamp)
      .check(z.meta({ description: 'When an operator stored it; null when shipped' })),
    updated_by: z
      .nullable(z.string())
      .check(z.meta({ description: 'The operator who stored it; null when shipped' })),
  })
  .check(z.meta({ id: 'FuelTaxRate' }));

export const fuelTaxRatesSchema = z
  .object({
    object: z.literal('fuel_tax_rates'),
    as_of: timestamp,
    quarter: z.string().check(z.meta({ example: '2026-Q4', description: 'The current quarter (UTC)' })),
    in_force: z
      .array(fuelTaxRateSchema)
      .check(
        z.meta({ description: 'Per jurisdiction (48 states and DC, by code), the rate pricing uses now' }),
      ),
    upcoming: z.array(fuelTaxRateSchema).check(
      z.meta({
        description: 'Rates that take over at the start of a later quarter, by state then quarter',
      }),
    ),
  })
  .check(z.meta({ id: 'FuelTaxRates' }));

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

const priceImportOutcome = z.enum(['published', 'refused', 'dry_run']);

const priceImportRecord = z.object({
  source: z.string().check(z.meta({ example: 's3://fleet-fuel-prices/incoming/2026-11-28.csv' })),
  outcome: priceImportOutcome,
  version: z.string(),
  at: timestamp,
  accepted_rows: z.number().check(z.int()),
  rejected_rows: z.number().check(z.int()),
  reasons: z.array(z.string()).check(z.meta({ description: 'Why it was refused; empty otherwise' })),
});

/** GET /admin/v1/readiness (shared/admin/usecases/readiness.ts). */
export const readinessSchema = z
  .object({
    object: z.literal('readiness'),
    stage: z.enum(['prod', 'sandbox']),
    ready: z.boolean().check(z.meta({ description: 'False when `problems` lists anything' })),
    problems: z.array(z.string()).check(
      z.meta({
        description:
          'One sentence per problem, each saying what to do: production on the synthetic catalog, a stale or undated newest price, the latest price file refused (dry runs never count)',
      }),
    ),
    routing: z.object({
      engine: z
        .string()
        .check(z.meta({ example: 'amazon-location', description: 'What routes are planned with' })),
      fallback: z
        .literal('embedded')
        .check(
          z.meta({ description: 'What `-c routingEngine=embedded` switches the stage to (docs/routing.md)' }),
        ),
    }),
    station_catalog: z.object({
      source: z.enum(['imported', 'synthetic']),
      version: z.string(),
      station_count: z.number().check(z.int()),
      imported_at: z.nullable(timestamp).check(z.meta({ description: 'Null for the synthetic catalog' })),
      newest_price_updated_at: z
        .nullable(timestamp)
        .check(
          z.meta({ description: 'The newest price observation; null when the catalog does not record it' }),
        ),
      newest_price_age_hours: nullableNumber('Hours, to a tenth'),
      stale: z
        .boolean()
        .check(z.meta({ description: 'Newest price older than `stale_after_hours`, or of unknown age' })),
      stale_after_hours: z
        .number()
        .check(z.meta({ description: 'The stale-price alarm’s threshold (StationPricesStale)' })),
    }),
    last_price_import: z.nullable(
      priceImportRecord.check(
        z.meta({
          description:
            'The latest price file published or refused (dry runs are in `last_dry_run`); null before the first',
        }),
      ),
    ),
    last_dry_run: z.nullable(
      priceImportRecord.check(
        z.meta({
          description:
            'The latest dry run (`dry_run`, or `refused` when a guard would have refused it); never a readiness problem; null before the first',
        }),
      ),
    ),
    price_feed_bucket: z
      .nullable(z.string())
      .check(
        z.meta({ description: 'Where price files go (stack output PriceFeedBucketName); null locally' }),
      ),
  })
  .check(z.meta({ id: 'Readiness' }));
