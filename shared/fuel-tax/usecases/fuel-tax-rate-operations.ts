import type { AuditLog } from '#shared/accounts/domain/audit.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { ApiError } from '#shared/platform/errors.ts';
import {
  effectiveFromProblem,
  type FuelTaxRatesNow,
  mergeTaxRates,
  quarterOf,
  ratesAt,
  type SourcedTaxRate,
  type StoredTaxRate,
} from '../domain/rate-table.ts';
import { SHIPPED_STATE_DIESEL_TAX, type StateTaxRate } from '../domain/state-diesel-tax.ts';
import type { FuelTaxRateStore } from '../store/fuel-tax-rates.ts';

export interface FuelTaxRateDeps {
  rates: FuelTaxRateStore;
  audit: AuditLog;
  now: () => number;
}

/**
 * GET /admin/v1/fuel-tax-rates: the merged table as the store holds it now (not a container's
 * cached copy): the rates in force, each with its source, and the rows scheduled for later quarters.
 */
export async function listFuelTaxRates(
  deps: Pick<FuelTaxRateDeps, 'rates' | 'now'>,
): Promise<FuelTaxRatesNow> {
  const nowMs = deps.now();
  const { inForce, upcoming } = ratesAt(
    mergeTaxRates(SHIPPED_STATE_DIESEL_TAX, await deps.rates.list()),
    nowMs,
  );
  return { asOf: formatTimestamp(nowMs), quarter: quarterOf(nowMs), inForce, upcoming };
}

/**
 * PUT /admin/v1/fuel-tax-rates/{state}: stores a state's rate from a quarter on (replacing the
 * shipped or stored row of that quarter). The body's shape is the schema's to check; how far ahead
 * a quarter may be depends on today, so it is checked here. Pricing follows within a minute.
 */
export async function putFuelTaxRate(
  deps: FuelTaxRateDeps,
  operatorId: string,
  rate: StateTaxRate,
): Promise<SourcedTaxRate> {
  const nowMs = deps.now();
  const problem = effectiveFromProblem(rate.effectiveFrom, nowMs);
  if (problem) {
    throw new ApiError('validation_failed', `effective_from ${problem}.`, {
      hint: 'schedule the rate for a nearer quarter, and store the later one when it comes within reach',
      extensions: { errors: [{ field: 'effective_from', message: problem }] },
    });
  }
  const row: StoredTaxRate = { ...rate, updatedAt: formatTimestamp(nowMs), updatedBy: operatorId };
  const previous = await deps.rates.put(row);
  const shipped = SHIPPED_STATE_DIESEL_TAX.find(
    (candidate) => candidate.state === rate.state && candidate.effectiveFrom === rate.effectiveFrom,
  );
  await deps.audit.record({
    at: row.updatedAt,
    actor: { type: 'operator', id: operatorId },
    action: 'fuel_tax_rate.set',
    accountId: null,
    target: { type: 'fuel_tax_rate', id: `${rate.state}/${rate.effectiveFrom}` },
    reason: null,
    details: {
      state: rate.state,
      effective_from: rate.effectiveFrom,
      usd_per_gallon: rate.usdPerGallon,
      previous_usd_per_gallon: previous?.usdPerGallon ?? shipped?.usdPerGallon ?? null,
    },
  });
  return { ...row, source: 'operator' };
}
