import type { AuditLog } from '#shared/accounts/domain/audit.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import type { Plan } from '../domain/plans.ts';
import type { PlanStore } from '../store/plans.ts';

export interface PlanDeps {
  plans: PlanStore;
  audit: AuditLog;
  now: () => number;
}

/**
 * PUT /admin/v1/plans/{name}: creates or replaces a plan. Keys read their plan per request (cached
 * a minute per container), so a change reaches every key of the plan without touching them.
 */
export async function putPlan(deps: PlanDeps, operatorId: string, plan: Plan): Promise<Plan> {
  const previous = await deps.plans.get(plan.name);
  await deps.plans.put(plan);
  await deps.audit.record({
    at: formatTimestamp(deps.now()),
    actor: { type: 'operator', id: operatorId },
    action: previous ? 'plan.updated' : 'plan.created',
    accountId: null,
    target: { type: 'plan', id: plan.name },
    reason: null,
    details: {
      rate_limit_per_min: plan.rateLimitPerMin,
      monthly_quota: plan.monthlyQuota,
      station_query_budget: plan.stationQueryBudget,
      max_station_results: plan.priceQueryCap,
      ...(plan.enumerationGuard ? { enumeration_guard: plan.enumerationGuard } : {}),
    },
  });
  return plan;
}

/** GET /admin/v1/plans: every plan, by name. */
export function listPlans(deps: Pick<PlanDeps, 'plans'>): Promise<Plan[]> {
  return deps.plans.list();
}
