import { accountIdOf, type Principal } from '../domain/api-keys.ts';
import { type Plan, usagePeriod } from '../domain/plans.ts';
import { ApiError } from '../platform/errors.ts';
import type { Counters } from '../store/counters.ts';
import type { FleetStore } from '../store/fleets.ts';

export interface AccountDeps {
  plans: { get(name: string): Promise<Plan | null> };
  counters: Pick<Counters, 'readUsage'>;
  fleets: Pick<FleetStore, 'getPartner'>;
}

/** What GET /v1/me tells a key about itself: its plan and what its account used this month. */
export interface AccountOverview {
  principal: Principal;
  /** The partner's name for partner keys (its id if the partner record is gone); null for company keys. */
  partnerName: string | null;
  plan: Plan;
  period: ReturnType<typeof usagePeriod>;
  /** Calls per quota family this month: every family of the plan, at 0 before its first call. */
  usedByFamily: Record<string, number>;
  stationResults: number;
}

export async function describeAccount(
  deps: AccountDeps,
  principal: Principal,
  nowMs: number,
): Promise<AccountOverview> {
  const period = usagePeriod(nowMs);
  const [plan, used, partner] = await Promise.all([
    deps.plans.get(principal.planName),
    deps.counters.readUsage(accountIdOf(principal), period.id),
    principal.partnerId ? deps.fleets.getPartner(principal.partnerId) : null,
  ]);
  if (!plan) throw new ApiError('auth_unavailable', 'The key’s plan could not be loaded.');
  const { station_results: stationResults = 0, ...counted } = used;
  // Every family with a quota shows up, at 0 before its first call, so clients need no defaults.
  const families = [...new Set([...Object.keys(plan.monthlyQuota), ...Object.keys(counted)])].sort();
  return {
    principal,
    partnerName: principal.partnerId ? (partner?.name ?? principal.partnerId) : null,
    plan,
    period,
    usedByFamily: Object.fromEntries(families.map((family) => [family, counted[family] ?? 0])),
    stationResults,
  };
}
