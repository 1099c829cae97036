/** How the client retries transient failures (docs/typescript-client.md). */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 4; 1 turns retries off. */
  maxAttempts?: number;
  /** First backoff step in milliseconds; doubles per attempt. Default 500. */
  baseDelayMs?: number;
  /** Cap of one wait in milliseconds (a longer `Retry-After` is still honoured). Default 20 000. */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 20_000 };

/** 503s the API answers before it acts on anything: sending again can never do a thing twice. */
const REFUSED_BEFORE_ACTING = new Set(['auth_unavailable', 'route_capacity']);

/**
 * Whether an answer is worth sending again. 429 only for `rate_limited` (or API Gateway's own
 * throttle, which has no code): `quota_exceeded` and `station_budget_exceeded` do not clear until a
 * reset or an upgrade, and every other 4xx fails the same way again. 503 and 504 are transient, but
 * may come after the API acted: they are retried only for a `repeatable` request (a GET, a DELETE,
 * or one carrying an Idempotency-Key), else only the 503s raised before anything was done.
 */
export function isRetryable(status: number, code: string | undefined, repeatable = true): boolean {
  if (status === 429) return code === 'rate_limited' || code === undefined;
  if (status !== 503 && status !== 504) return false;
  return repeatable || (status === 503 && code !== undefined && REFUSED_BEFORE_ACTING.has(code));
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (header.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * The wait before attempt `attempt + 1`: exponential backoff with full jitter (a random point of
 * the capped step, so many clients failing together do not come back together), and never less
 * than what the server asked for in `Retry-After`.
 */
export function retryDelayMs(
  attempt: number,
  options: Required<RetryOptions>,
  random: () => number,
  serverAskedMs?: number,
): number {
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  const jittered = Math.round(random() * step);
  return serverAskedMs === undefined ? jittered : Math.max(serverAskedMs, jittered);
}
