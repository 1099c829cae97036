import { routes } from '../../../shared/api/routes.ts';
import { accountIdOf } from '../../../shared/domain/api-keys.ts';
import { usagePeriod } from '../../../shared/domain/plans.ts';
import { ApiError } from '../../../shared/platform/errors.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { formatTimestamp } from '../../../shared/platform/time.ts';
import { repositories } from '../../../shared/store/repositories.ts';

export const handler = createHttpHandler(routes.getMe, async (_input, context) => {
  const principal = context.principal;
  if (!principal) throw new Error('GET /v1/me reached without a key');
  const { plans, counters, fleets } = repositories();
  const period = usagePeriod(context.clock.now());
  const [plan, used, partner] = await Promise.all([
    plans.get(principal.planName),
    counters.readUsage(accountIdOf(principal), period.id),
    principal.partnerId ? fleets.getPartner(principal.partnerId) : null,
  ]);
  if (!plan) throw new ApiError('auth_unavailable', 'The key’s plan could not be loaded.');
  const { station_results: stationResults = 0, ...usedByFamily } = used;
  // Every family with a quota shows up, at 0 before its first call, so clients need no defaults.
  const families = [...new Set([...Object.keys(plan.monthlyQuota), ...Object.keys(usedByFamily)])].sort();
  return ok({
    key: {
      id: principal.keyId,
      name: principal.keyName,
      owner_type: principal.ownerType,
      mode: principal.mode,
    },
    partner: principal.partnerId
      ? { id: principal.partnerId, name: partner?.name ?? principal.partnerId }
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
      period: { start: formatTimestamp(period.start), end: formatTimestamp(period.end) },
    },
  });
});
