import type { EndpointFamily } from '#shared/kernel/access.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import type { Plan } from '#shared/plans/domain/plans.ts';
import { usagePeriod } from '#shared/plans/domain/plans.ts';
import { decideRate, rateLimitHeaders, rateWindow } from '#shared/plans/domain/rate-window.ts';
import { monthlyLimitHint } from '#shared/plans/domain/usage-limits.ts';
import { authUnavailable } from '../domain-errors.ts';
import { ApiError } from '../errors.ts';
import { logger } from '../observability.ts';
import { type AdmissionCounters, admitUsage } from '../usage-admission.ts';
import { emitUsageOf } from '../usage-metrics.ts';

/** The counters the chain writes (the store's `Counters` is one). */
export interface UsageCounters extends AdmissionCounters<EndpointFamily> {
  /** Counts one request in the key's rate window; returns the window's count so far. */
  hitRateWindow(keyId: string, windowStartSeconds: number): Promise<number>;
}

export interface LimitDeps {
  plan: (name: string) => Promise<Plan | null>;
  counters: UsageCounters;
  now: () => number;
}

/**
 * The per-key request rate (docs/limits.md). Returns the RateLimit headers every authenticated
 * response carries; throws 429 `rate_limited` (with the same headers and Retry-After) when over.
 * A failing counter store fails open: refusing all traffic because a counter is unreachable would
 * turn a partial outage into a full one; the API Gateway stage throttle still bounds load.
 */
export async function enforceRateLimit(
  principal: Principal,
  deps: LimitDeps,
): Promise<Record<string, string>> {
  let plan: Plan | null;
  try {
    plan = await deps.plan(principal.planName);
  } catch (error) {
    logger.error('Plan store unavailable', { error });
    throw authUnavailable('The key’s plan could not be loaded right now.');
  }
  if (!plan) {
    logger.error('Key references an unknown plan', { keyId: principal.keyId, plan: principal.planName });
    throw authUnavailable('The key’s plan could not be loaded.');
  }
  const window = rateWindow(deps.now());
  let hits: number;
  try {
    hits = await deps.counters.hitRateWindow(principal.keyId, window.startSeconds);
  } catch (error) {
    logger.warn('Rate counter unavailable; failing open', { error });
    return {};
  }
  const decision = decideRate(hits, plan.rateLimitPerMin, window);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new ApiError(
      'rate_limited',
      `This key made more than ${plan.rateLimitPerMin} requests this minute.`,
      {
        extensions: { retry_after: window.resetSeconds, limit: plan.rateLimitPerMin, used: hits },
        headers: { ...headers, 'Retry-After': String(window.resetSeconds) },
      },
    );
  }
  return headers;
}

/**
 * The monthly quota of the route's family (docs/limits.md), checked after key, rate, scope and
 * fleet: the call is counted only if it fits, in one conditional write, so concurrent calls never
 * overshoot and a refused call uses nothing. 429 `quota_exceeded` is not retried (it clears on the
 * first of the next month or with a bigger plan), so it has no Retry-After. A family the plan has
 * no quota for is unlimited but still counted, for GET /v1/me; a route without a family (GET
 * /v1/me itself) is exempt. A failing counter store fails open, like the rate limit.
 */
export async function enforceQuota(
  principal: Principal,
  family: EndpointFamily | null,
  deps: LimitDeps,
  /** The acting fleet, so finance can count a partner's calls per fleet (a company key's is its own). */
  fleetId: string | null = null,
): Promise<void> {
  if (!family) return;
  const nowMs = deps.now();
  const refusal = await admitUsage(
    deps.counters,
    { accountId: principal.accountId, periodId: usagePeriod(nowMs).id, counter: family },
    async () => (await deps.plan(principal.planName))?.monthlyQuota[family],
    (error) => logger.warn('Usage counter unavailable; request not counted', { error, family }),
  );
  if (refusal) {
    const { limit, used } = refusal;
    throw new ApiError('quota_exceeded', `This account used its ${limit} ${family} calls for this month.`, {
      hint: monthlyLimitHint('wait for reset or upgrade', nowMs),
      extensions: { limit, used },
    });
  }
  emitUsageOf(principal, 'ApiCalls', family, 1, fleetId);
}
