/** How the client retries transient failures (spec section 7, "Retry guidance"). */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 4; 1 turns retries off. */
  maxAttempts?: number;
  /** First backoff step in milliseconds; doubles per attempt. Default 500. */
  baseDelayMs?: number;
  /** Cap of one wait in milliseconds (a longer `Retry-After` is still honoured). Default 20 000. */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 20_000 };

/**
 * Whether an answer is worth sending again: 503 and 504 (transient), and 429 only for
 * `rate_limited`. `quota_exceeded` and `station_budget_exceeded` (also 429) do not clear until a
 * reset or an upgrade, and every other 4xx fails the same way again.
 */
export function isRetryable(status: number, code: string | undefined): boolean {
  if (status === 503 || status === 504) return true;
  return status === 429 && code === 'rate_limited';
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
