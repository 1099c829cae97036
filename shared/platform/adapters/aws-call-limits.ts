/**
 * How long any AWS SDK call of a function may take. The SDK's default is to wait forever for a
 * connection and an answer: with DynamoDB unresponsive, a request hung for as long as it was, then
 * ran into the function's own timeout. Every client is built with these bounds instead, so a
 * caller gets a fast 503 (`storage_unavailable` with Retry-After, or `auth_unavailable` on the auth
 * path) and the function always ends on its own terms.
 */
export interface AwsCallLimits {
  /** Opening a new connection (a reused keep-alive connection skips it). */
  connectionTimeoutMs: number;
  /** From sending the request to the end of the answer, per attempt. */
  requestTimeoutMs: number;
  /** Attempts in all, the first included (the SDK's standard retry strategy). */
  maxAttempts: number;
}

/**
 * DynamoDB, SQS and Scheduler answer in milliseconds; an attempt that has not answered in 2 s is
 * a stalled connection or an outage, and a second attempt on a fresh connection is the one retry
 * worth its wait. Worst case: {@link worstCaseCallMs} = 7 s, under the HTTP functions' 10 s.
 */
export const AWS_CALL_LIMITS: Readonly<AwsCallLimits> = {
  connectionTimeoutMs: 1_000,
  requestTimeoutMs: 2_000,
  maxAttempts: 2,
};

/**
 * DynamoDB Local (the local stack, the tests): its JVM shares a developer's or CI's cores with the
 * test workers, and on a loaded two-core machine one answer can stall for seconds (a GC pause)
 * without anything being wrong. Still bounded: 11 s at worst instead of forever.
 */
export const LOCAL_AWS_CALL_LIMITS: Readonly<AwsCallLimits> = {
  connectionTimeoutMs: 1_000,
  requestTimeoutMs: 4_000,
  maxAttempts: 2,
};

/**
 * The standard retry strategy waits a random time up to 100 ms × 2^attempt between attempts, and
 * up to 500 ms × 2^attempt after throttling.
 */
const MAX_BACKOFF_MS_PER_RETRY = 1_000;

/** The client options that apply `limits` (any AWS SDK v3 client takes them). */
export function boundedClientConfig(limits: Readonly<AwsCallLimits> = AWS_CALL_LIMITS) {
  return {
    maxAttempts: limits.maxAttempts,
    requestHandler: {
      connectionTimeout: limits.connectionTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Without it a request over requestTimeout only logs a warning and goes on waiting.
      throwOnRequestTimeout: true,
    },
  };
}

/** The longest one call can take: every attempt connecting and answering at its last moment. */
export function worstCaseCallMs(limits: Readonly<AwsCallLimits> = AWS_CALL_LIMITS): number {
  const perAttempt = limits.connectionTimeoutMs + limits.requestTimeoutMs;
  return limits.maxAttempts * perAttempt + (limits.maxAttempts - 1) * MAX_BACKOFF_MS_PER_RETRY;
}
