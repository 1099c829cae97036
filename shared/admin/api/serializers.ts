import type * as z from 'zod/mini';
import type { Account } from '#shared/accounts/domain/account.ts';
import type { AuditEntry } from '#shared/accounts/domain/audit.ts';
import type { ProductionAccessRequest } from '#shared/accounts/domain/production-access.ts';
import type { FuelTaxRatesNow, SourcedTaxRate } from '#shared/fuel-tax/domain/rate-table.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import type { ApiKeyRecord } from '#shared/keys/domain/api-key.ts';
import type { Plan } from '#shared/plans/domain/plans.ts';
import { enumerationGuardOf } from '#shared/stations/domain/enumeration-guard.ts';
import type { PriceImportRecord } from '#shared/stations/store/station-catalog.ts';
import type { Readiness } from '../usecases/readiness.ts';
import type {
  accountSchema,
  apiKeySchema,
  auditEntrySchema,
  fuelTaxRateSchema,
  fuelTaxRatesSchema,
  planSchema,
  productionAccessRequestSchema,
  readinessSchema,
} from './schemas.ts';

// The operator API's answers (shared/admin/api/schemas.ts): snake_case, `object` first, never a
// stored hash; a secret only where the route answers it once.

/** Keys carry no hashes here: a StoredKey passed in is reduced to the record's public fields. */
export function apiKeyResource(key: ApiKeyRecord): z.infer<typeof apiKeySchema> {
  return {
    object: 'api_key',
    id: key.keyId,
    name: key.name,
    owner_type: key.ownerType,
    account_id: key.accountId,
    mode: key.mode,
    scopes: [...key.scopes],
    status: key.status,
    plan: key.planName,
    fleet_id: key.fleetId,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    last_used_at: key.lastUsedAt,
    revoked_reason: key.revokedReason,
  };
}

export const apiKeyWithSecretResource = (key: ApiKeyRecord, secret: string) => ({
  ...apiKeyResource(key),
  secret,
});

export function accountResource(account: Account): z.infer<typeof accountSchema> {
  return {
    object: account.type,
    id: account.id,
    name: account.name,
    contact_email: account.contactEmail,
    timezone: account.timezone,
    plan: account.planName,
    live_fleet_id: account.liveFleetId,
    sandbox_fleet_id: account.sandboxFleetId,
    production_access: {
      status: account.productionAccess.status,
      request_id: account.productionAccess.requestId,
      reason: account.productionAccess.reason,
      decided_at: account.productionAccess.decidedAt,
    },
    created_at: account.createdAt,
  };
}

export function productionAccessRequestResource(
  request: ProductionAccessRequest,
): z.infer<typeof productionAccessRequestSchema> {
  return {
    object: 'production_access_request',
    id: request.id,
    account_id: request.accountId,
    status: request.status,
    use_case: request.useCase,
    expected_vehicles: request.expectedVehicles,
    contact_email: request.contactEmail,
    requested_at: request.requestedAt,
    requested_by: request.requestedBy,
    decided_at: request.decidedAt,
    decided_by: request.decidedBy,
    plan: request.planName,
    reason: request.reason,
  };
}

/** A plan with its effective enumeration thresholds (defaults filled in), as the guard applies them. */
export function planResource(plan: Plan): z.infer<typeof planSchema> {
  const guard = enumerationGuardOf(plan.enumerationGuard);
  return {
    object: 'plan',
    name: plan.name,
    rate_limit_per_min: plan.rateLimitPerMin,
    monthly_quota: { ...plan.monthlyQuota },
    station_query_budget: plan.stationQueryBudget,
    max_station_results: plan.priceQueryCap,
    enumeration_guard: {
      window_minutes: guard.windowMinutes,
      lattice_min_cells: guard.latticeMinCells,
      max_distinct_cells: guard.maxDistinctCells,
      max_area_cells: guard.maxAreaCells,
      fleet_radius_miles: guard.fleetRadiusMiles,
      far_share: guard.farShare,
      cool_down_minutes: guard.coolDownMinutes,
    },
  };
}

export function auditEntryResource(entry: AuditEntry): z.infer<typeof auditEntrySchema> {
  return {
    object: 'audit_entry',
    id: entry.id,
    at: entry.at,
    actor: entry.actor,
    action: entry.action,
    account_id: entry.accountId,
    target: entry.target,
    reason: entry.reason,
    details: entry.details,
  };
}

export function fuelTaxRateResource(rate: SourcedTaxRate): z.infer<typeof fuelTaxRateSchema> {
  return {
    object: 'fuel_tax_rate',
    state: rate.state,
    usd_per_gallon: rate.usdPerGallon,
    effective_from: rate.effectiveFrom,
    source: rate.source,
    updated_at: rate.updatedAt,
    updated_by: rate.updatedBy,
  };
}

export function fuelTaxRatesResource(rates: FuelTaxRatesNow): z.infer<typeof fuelTaxRatesSchema> {
  return {
    object: 'fuel_tax_rates',
    as_of: rates.asOf,
    quarter: rates.quarter,
    in_force: rates.inForce.map(fuelTaxRateResource),
    upcoming: rates.upcoming.map(fuelTaxRateResource),
  };
}

/** GET /admin/v1/readiness. */
export function readinessResource(readiness: Readiness): z.infer<typeof readinessSchema> {
  const { catalog } = readiness;
  return {
    object: 'readiness',
    stage: readiness.stage,
    ready: readiness.ready,
    problems: readiness.problems,
    routing: { engine: readiness.routing.engine, fallback: 'embedded' },
    station_catalog: {
      source: catalog.source,
      version: catalog.version,
      station_count: catalog.stationCount,
      imported_at: catalog.importedAt === null ? null : wireTimestamp(catalog.importedAt),
      newest_price_updated_at:
        catalog.newestPriceUpdatedAtMs === null ? null : wireTimestamp(catalog.newestPriceUpdatedAtMs),
      newest_price_age_hours: readiness.newestPriceAgeHours,
      stale: readiness.stale,
      stale_after_hours: readiness.staleAfterHours,
    },
    last_price_import: priceImportResource(readiness.lastImport),
    last_dry_run: priceImportResource(readiness.lastDryRun),
    price_feed_bucket: readiness.priceFeedBucket,
  };
}

function priceImportResource(
  record: PriceImportRecord | null,
): z.infer<typeof readinessSchema>['last_price_import'] {
  if (record === null) return null;
  return {
    source: record.source,
    outcome: record.outcome,
    version: record.version,
    at: wireTimestamp(record.at),
    accepted_rows: record.acceptedRows,
    rejected_rows: record.rejectedRows,
    reasons: record.reasons,
  };
}

/** Stored times are ISO strings in any precision; the wire has six fractional digits. */
function wireTimestamp(at: string | number): string {
  return formatTimestamp(typeof at === 'number' ? at : Date.parse(at));
}
