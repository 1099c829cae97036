/**
 * Fixed one-minute windows (docs/limits.md: per minute, per key). Fixed windows cost one atomic
 * counter per key and minute; the price is a possible burst of 2× at a window edge, which the
 * API Gateway stage throttle bounds anyway.
 */
export const RATE_WINDOW_SECONDS = 60;

export interface RateWindow {
  /** Epoch seconds at which the window began; part of the counter's key. */
  startSeconds: number;
  /** Seconds until the window resets (1..60), for RateLimit-Reset and Retry-After. */
  resetSeconds: number;
  /** Epoch seconds of the reset, for X-RateLimit-Reset. */
  resetAtSeconds: number;
}

export function rateWindow(nowMs: number): RateWindow {
  const nowSeconds = nowMs / 1000;
  const startSeconds = Math.floor(nowSeconds / RATE_WINDOW_SECONDS) * RATE_WINDOW_SECONDS;
  const resetAtSeconds = startSeconds + RATE_WINDOW_SECONDS;
  return { startSeconds, resetAtSeconds, resetSeconds: Math.max(1, Math.ceil(resetAtSeconds - nowSeconds)) };
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  window: RateWindow;
}

/** `hits` counts this request too (the counter was incremented before the decision). */
export function decideRate(hits: number, limit: number, window: RateWindow): RateDecision {
  return { allowed: hits <= limit, limit, remaining: Math.max(0, limit - hits), window };
}

/**
 * The rate limit headers (docs/limits.md), the IETF draft's structured pair
 * (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy` and `RateLimit`), and
 * `X-RateLimit-Reset` (epoch seconds, the GitHub convention) which the registry's hint names.
 */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const { limit, remaining, window } = decision;
  return {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(remaining),
    'RateLimit-Reset': String(window.resetSeconds),
    'RateLimit-Policy': `"per-key";q=${limit};w=${RATE_WINDOW_SECONDS}`,
    RateLimit: `"per-key";r=${remaining};t=${window.resetSeconds}`,
    'X-RateLimit-Reset': String(window.resetAtSeconds),
  };
}
