import { routes } from '../../../shared/api/routes.ts';
import { actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { formatTimestamp } from '../../../shared/platform/time.ts';
import { describeAccount } from '../../../shared/usecases/account.ts';
import { accountDeps } from '../../../shared/wiring/account.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(routes.getMe, async (_input, context) => {
  const account = await describeAccount(accountDeps(), actingPrincipal(context), context.clock.now());
  const { principal, plan, period } = account;
  return ok({
    key: {
      id: principal.keyId,
      name: principal.keyName,
      owner_type: principal.ownerType,
      mode: principal.mode,
    },
    partner: principal.partnerId ? { id: principal.partnerId, name: account.partnerName } : null,
    fleet_id: principal.ownFleetId,
    scopes: principal.scopes,
    plan: {
      name: plan.name,
      rate_limit_per_min: plan.rateLimitPerMin,
      monthly_quota: Object.fromEntries(
        Object.entries(plan.monthlyQuota).sort(([a], [b]) => a.localeCompare(b)),
      ),
      used_this_month: account.usedByFamily,
      price_query_cap: plan.priceQueryCap,
      station_query_budget: plan.stationQueryBudget,
      station_results_this_month: account.stationResults,
      period: { start: formatTimestamp(period.start), end: formatTimestamp(period.end) },
    },
  });
});
