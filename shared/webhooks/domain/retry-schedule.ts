/**
 * The published webhook retry schedule (docs/api-guide.md#events-and-webhooks: "retried on a backoff schedule
 * over roughly a day"). Modelled on Svix's, which integrators already know.
 *
 * | Attempt | Delay after the previous attempt | Time since the event (no jitter) |
 * |---|---|---|
 * | 1 | immediately | 0 |
 * | 2 | 5 seconds | 5 s |
 * | 3 | 5 minutes | 5 min 5 s |
 * | 4 | 30 minutes | 35 min 5 s |
 * | 5 | 2 hours | 2 h 35 min |
 * | 6 | 5 hours | 7 h 35 min |
 * | 7 | 10 hours | 17 h 35 min |
 * | 8 | 10 hours | 27 h 35 min (about 27.6 hours) |
 *
 * Each retry delay is jittered by up to ±10 % so that endpoints that failed together (a receiver
 * outage) are not retried in one burst. Only a 2xx response is a success; any other status, a
 * timeout, a refused connection or a redirect is a failure. After attempt 8 fails the delivery is
 * `failed` and goes to the dead-letter queue; it can still be replayed by hand.
 */
export const RETRY_DELAYS_SECONDS = [
  0,
  5,
  5 * 60,
  30 * 60,
  2 * 3600,
  5 * 3600,
  10 * 3600,
  10 * 3600,
] as const;

/** Attempts per delivery, the first one included. */
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_SECONDS.length;

/** ±10 %: enough to spread a synchronized wave, small enough that the published times still hold. */
export const RETRY_JITTER_RATIO = 0.1;

/**
 * Seconds to wait before the attempt after `attemptNumber` (1-based, the attempt that just failed),
 * or `null` when that was the last attempt: the delivery is exhausted, goes to the dead-letter
 * queue and is marked `failed`.
 *
 * `random` returns a number in [0, 1), like `Math.random`; inject a fixed one for a deterministic
 * schedule. The result is whole seconds (the scheduler's resolution) and never below 1.
 *
 * @example
 * nextRetryDelaySeconds(1, () => 0.5); // 5: attempt 1 failed, attempt 2 in 5 s
 * nextRetryDelaySeconds(3, () => 0.5); // 1800: attempt 4 in 30 min
 * nextRetryDelaySeconds(8); // null: exhausted
 */
export function nextRetryDelaySeconds(
  attemptNumber: number,
  random: () => number = Math.random,
): number | null {
  if (!Number.isInteger(attemptNumber) || attemptNumber < 1) {
    throw new RangeError(`attemptNumber must be an integer >= 1, got ${attemptNumber}`);
  }
  // RETRY_DELAYS_SECONDS[n] is the delay before attempt n + 1, i.e. after attempt n.
  const baseDelay = RETRY_DELAYS_SECONDS[attemptNumber];
  if (baseDelay === undefined) return null;
  // Clamped (NaN counts as no jitter) so a misbehaving random source cannot push a retry outside
  // the published ±10 % or schedule it at NaN.
  const drawn = random();
  const unit = Number.isNaN(drawn) ? 0.5 : Math.min(Math.max(drawn, 0), 1);
  const factor = 1 + RETRY_JITTER_RATIO * (2 * unit - 1);
  return Math.max(1, Math.round(baseDelay * factor));
}

/**
 * Auto-disable policy (an endpoint has a `disabled` state; this says when it is entered).
 *
 * An endpoint is disabled automatically when BOTH hold:
 * - its last 5 finished deliveries all ended `failed` (every one of the 8 attempts failed), and
 * - it has not returned a 2xx for at least 5 days (counted from its last success, or from its
 *   creation or last re-enable when that is later).
 *
 * Both, because each alone misfires: a busy endpoint down for an afternoon can exhaust 5
 * deliveries in little more than a day (each takes ~27.6 h), and a quiet endpoint can go days
 * without any delivery at all. Test sends (`POST /v1/webhooks/{id}/test`) never count and never
 * disable. Re-enabling (PATCH `status: active`) restarts the 5-day clock.
 */
export const AUTO_DISABLE_AFTER_CONSECUTIVE_FAILED_DELIVERIES = 5;
export const AUTO_DISABLE_AFTER_DAYS_WITHOUT_SUCCESS = 5;

const DAY_MS = 24 * 3600 * 1000;

export interface EndpointDeliveryHealth {
  /**
   * Deliveries that ended `failed` since the last success, in a row. The store keeps it as a
   * counter on the endpoint (ADD 1 when a delivery is exhausted, reset to 0 on any 2xx).
   */
  consecutiveFailedDeliveries: number;
  /** The latest of: the last 2xx response, the endpoint's creation, its last re-enable. Epoch ms. */
  healthySinceMs: number;
  /** What just finished: a test send never disables an endpoint. */
  trigger: 'delivery' | 'test';
}

/**
 * Whether the endpoint should now be disabled, per the policy above. Call it when a delivery has
 * just been marked `failed`.
 *
 * @example
 * shouldAutoDisable({ consecutiveFailedDeliveries: 5, healthySinceMs: Date.parse('2026-07-01'), trigger: 'delivery' },
 *   Date.parse('2026-07-07')); // true
 */
export function shouldAutoDisable(health: EndpointDeliveryHealth, nowMs: number): boolean {
  if (health.trigger === 'test') return false;
  return (
    health.consecutiveFailedDeliveries >= AUTO_DISABLE_AFTER_CONSECUTIVE_FAILED_DELIVERIES &&
    nowMs - health.healthySinceMs >= AUTO_DISABLE_AFTER_DAYS_WITHOUT_SUCCESS * DAY_MS
  );
}
