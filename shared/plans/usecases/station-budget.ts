import type { Principal } from '#shared/keys/domain/api-key.ts';
import { currentStage } from '#shared/platform/config.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { logger } from '#shared/platform/observability.ts';
import { admitUsage } from '#shared/platform/usage-admission.ts';
import { emitUsage, emitUsageOf } from '#shared/platform/usage-metrics.ts';
import { type Plan, usagePeriod } from '../domain/plans.ts';
import { monthlyLimitHint, remaining } from '../domain/usage-limits.ts';
import type { Counters } from '../store/counters.ts';

export interface StationBudgetDeps {
  plan: (name: string) => Promise<Plan | null>;
  counters: Pick<Counters, 'addUsage' | 'addUsageWithin'>;
  now: () => number;
}

/**
 * What a charge does when its stations would cross the month's budget. `refuse`: an explicit
 * station query (GET /v1/stations, along-route, a route) answers 429 station_budget_exceeded and
 * charges nothing. `overage`: live guidance is never refused (a driver mid-trip must not lose it
 * because a dashboard queried too much); its stations are charged to the month's overage counter,
 * shown by GET /v1/me as `station_results_overage`.
 */
export type AtBudget = 'refuse' | 'overage';

/**
 * Charges `count` returned stations to the account's station-query budget (docs/limits.md), before
 * the answer leaves: one conditional ADD of the whole count, so concurrent queries never overshoot
 * and a refused query charges nothing. A charge is all or nothing: a guidance answer that does not
 * fit whole goes to overage whole. A failing counter store fails open, like the other counters.
 */
export async function chargeStationResults(
  deps: StationBudgetDeps,
  principal: Principal,
  count: number,
  atBudget: AtBudget,
  /** The acting fleet, for the finance queries per fleet (a partner key's is not on the key). */
  fleetId?: string,
): Promise<void> {
  if (count === 0) return;
  const accountId = principal.accountId;
  const nowMs = deps.now();
  const periodId = usagePeriod(nowMs).id;
  const refusal = await admitUsage(
    deps.counters,
    { accountId, periodId, counter: 'station_results', amount: count },
    async () => (await deps.plan(principal.planName))?.stationQueryBudget,
    (error) => logger.warn('Station budget counter unavailable; results not counted', { error, count }),
  );
  if (refusal) {
    const { limit, used } = refusal;
    if (atBudget === 'refuse') {
      throw new ApiError(
        'station_budget_exceeded',
        `This answer has ${count} stations; ${remaining(limit, used)} of this month’s ${limit} remain.`,
        {
          hint: monthlyLimitHint('reduce station queries or upgrade', nowMs),
          extensions: { limit, used },
        },
      );
    }
    await chargeOverage(deps, accountId, periodId, count);
    // Overage is invoiced apart from the budget: its own metric, never mixed into StationResults.
    emitUsageOf(principal, 'StationResultsOverage', 'stations', count, fleetId);
    return;
  }
  // One metric for what the budget was charged, wherever the stations were returned.
  emitUsageOf(principal, 'StationResults', 'stations', count, fleetId);
}

async function chargeOverage(
  deps: StationBudgetDeps,
  accountId: string,
  periodId: string,
  count: number,
): Promise<void> {
  logger.info('Station budget spent; guidance results counted as overage', { count });
  try {
    await deps.counters.addUsage(accountId, periodId, 'station_results_overage', count);
  } catch (error) {
    logger.warn('Station overage counter unavailable; results not counted', { error, count });
  }
}

export interface ReplanChargeDeps {
  counters: Pick<Counters, 'addUsage' | 'addUsageWithin' | 'recordedLimit' | 'readUsage'>;
  now: () => number;
}

/**
 * Charges the stations a guidance worker's re-plan newly recommends (ones the session was not
 * already recommending: the start, or an earlier re-plan, charged those) to the fleet's account
 * (the one its keys bill to: the partner, or the company),
 * like live guidance: within the month's budget when they fit, as overage when not, never refused.
 * The worker acts without a key, so the budget is the one the account's last bounded charge this
 * month was admitted against (`recordedLimit`); before any, the stations go to the budget's count
 * unless guidance already went to overage this month. Never throws: a charge is never worth a
 * driver's guidance (a failure is logged; the re-plan was already committed and announced).
 */
export async function chargeReplannedStations(
  deps: ReplanChargeDeps,
  { accountId, fleetId }: { accountId: string; fleetId: string },
  count: number,
): Promise<void> {
  if (count <= 0) return;
  const nowMs = deps.now();
  const periodId = usagePeriod(nowMs).id;
  let metric: 'StationResults' | 'StationResultsOverage' = 'StationResults';
  try {
    const limit = await deps.counters.recordedLimit(accountId, periodId, 'station_results');
    const fits =
      limit === null
        ? // No bounded charge admitted this month: unless guidance already went to overage (the
          // budget is spent), nothing is charged yet, and the stations go to the budget's count.
          ((await deps.counters.readUsage(accountId, periodId)).station_results_overage ?? 0) === 0
        : (await deps.counters.addUsageWithin(accountId, periodId, 'station_results', count, limit)).admitted;
    if (limit === null && fits) await deps.counters.addUsage(accountId, periodId, 'station_results', count);
    if (!fits) {
      metric = 'StationResultsOverage';
      await deps.counters.addUsage(accountId, periodId, 'station_results_overage', count);
    }
  } catch (error) {
    logger.warn('Station budget counter unavailable; re-planned stations not counted', { error, count });
    return;
  }
  emitUsage({
    metric,
    count,
    stage: currentStage(),
    family: 'stations',
    accountId,
    plan: null,
    fleetId,
  });
}

/**
 * The account a fleet's usage bills to when no key is at hand (the guidance worker): its partner,
 * else the company the control plane maps it to, else the fleet itself (a fleet the control plane
 * does not know, e.g. one a test wrote directly).
 */
export async function fleetBillingAccount(
  fleetId: string,
  fleet: { partnerId: string | null } | null,
  companyOf: (fleetId: string) => Promise<string | null>,
): Promise<string> {
  return fleet?.partnerId ?? (await companyOf(fleetId)) ?? fleetId;
}
