import type { EndpointFamily } from '../../domain/access.ts';
import { accountIdOf, type Principal } from '../../domain/api-keys.ts';
import type { Plan } from '../../domain/plans.ts';
import { usagePeriod } from '../../domain/plans.ts';
import { decideRate, rateLimitHeaders, rateWindow } from '../../domain/rate-window.ts';
import { ApiError } from '../errors.ts';
import { logger } from '../observability.ts';
import { emitUsageOf } from '../usage-metrics.ts';

/** The counters the chain writes (the store's `Counters` is one). */
export interface UsageCounters {
  /** Counts one request in the key's rate window; returns the window's count so far. */
  hitRateWindow(keyId: string, windowStartSeconds: number): Promise<number>;
  /** Counts one use of a family in the account's month. */
  addUsage(accountId: string, periodId: string, family: EndpointFamily): Promise<void>;
}

export interface LimitDeps {
  plan: (name: string) => Promise<Plan | null>;
  counters: UsageCounters;
  now: () => number;
}

/**
 * The per-key request rate (spec section 8). Returns the RateLimit headers every authenticated
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
    throw new ApiError('auth_unavailable', 'The key’s plan could not be loaded right now.');
  }
  if (!plan) {
    logger.error('Key references an unknown plan', { keyId: principal.keyId, plan: principal.planName });
    throw new ApiError('auth_unavailable', 'The key’s plan could not be loaded.');
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
 * The monthly quota: usage is counted per account and family. It is not yet enforced (no 429
 * `quota_exceeded`); enforcing it belongs here, beside the count.
 */
export async function countUsage(
  principal: Principal,
  family: EndpointFamily | null,
  deps: Pick<LimitDeps, 'counters' | 'now'>,
): Promise<void> {
  if (!family) return;
  emitUsageOf(principal, 'ApiCalls', family, 1);
  try {
    await deps.counters.addUsage(accountIdOf(principal), usagePeriod(deps.now()).id, family);
  } catch (error) {
    logger.warn('Usage counter unavailable; request not counted', { error, family });
  }
}
