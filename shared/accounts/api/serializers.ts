import { formatTimestamp } from '#shared/kernel/time.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import type { Plan } from '#shared/plans/domain/plans.ts';

export interface MeInputs {
  principal: Principal;
  plan: Plan;
  /**
   * This month's usage counters as stored: by endpoint family, plus `station_results` and
   * `station_results_overage`.
   */
  used: Readonly<Record<string, number>>;
  /** The key's account (partner or company); null when its record is not found. */
  account: { name: string } | null;
  /** The usage period (UTC calendar month) `used` was read for. */
  period: { start: Date; end: Date };
}

/** GET /v1/me: the calling key, its plan and this month's usage. */
export function meResource({ principal, plan, used, account, period }: MeInputs) {
  const { station_results: stationResults = 0, station_results_overage: overage = 0, ...usedByFamily } = used;
  // Every family with a quota shows up, at 0 before its first call, so clients need no defaults.
  const families = [...new Set([...Object.keys(plan.monthlyQuota), ...Object.keys(usedByFamily)])].sort();
  return {
    key: {
      id: principal.keyId,
      name: principal.keyName,
      owner_type: principal.ownerType,
      mode: principal.mode,
    },
    account: {
      id: principal.accountId,
      type: principal.ownerType,
      name: account?.name ?? principal.accountId,
    },
    partner: principal.partnerId
      ? { id: principal.partnerId, name: account?.name ?? principal.partnerId }
      : null,
    fleet_id: principal.ownFleetId,
    scopes: principal.scopes,
    plan: {
      name: plan.name,
      rate_limit_per_min: plan.rateLimitPerMin,
      monthly_quota: Object.fromEntries(
        Object.entries(plan.monthlyQuota).sort(([a], [b]) => a.localeCompare(b)),
      ),
      used_this_month: Object.fromEntries(families.map((family) => [family, usedByFamily[family] ?? 0])),
      price_query_cap: plan.priceQueryCap,
      station_query_budget: plan.stationQueryBudget,
      station_results_this_month: stationResults,
      station_results_overage: overage,
      period: { start: formatTimestamp(period.start), end: formatTimestamp(period.end) },
    },
  };
}
