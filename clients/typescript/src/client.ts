import createClient, { type Client } from 'openapi-fetch';
import { FleetFuelApiError, problemOf } from './errors.ts';
import type { paths } from './generated/api.ts';
import { IDEMPOTENCY_HEADER, newIdempotencyKey, requiresIdempotencyKey } from './idempotency.ts';
import { DEFAULT_RETRY, isRetryable, type RetryOptions, retryAfterMs, retryDelayMs } from './retry.ts';

export interface FleetFuelClientOptions {
  /** e.g. `https://api.example.com` (production) or the sandbox base URL; no trailing `/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Partner keys: the fleet to act on (sent as `SVC-Fleet` on every call). */
  fleetId?: string;
  retry?: RetryOptions;
  /** Seams for tests and runtimes without a global fetch. */
  fetch?: (request: Request) => Promise<Response>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  newIdempotencyKey?: () => string;
}

export type FleetFuelClient = Client<paths>;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The typed client: openapi-fetch over the generated `paths`, every call through one fetch that
 * - adds an `Idempotency-Key` to the POSTs that require one, unless the caller set it, and sends
 *   the same key on every retry of that call (the server then replays rather than repeats);
 * - retries 429 `rate_limited`, 503 and 504 (and 409 `idempotency_conflict`, which the spec says
 *   to retry with the same key) with backoff and jitter, honouring `Retry-After`; network errors
 *   only on calls that are safe to repeat (GET, DELETE, or carrying an idempotency key);
 * - throws every other 4xx/5xx as a `FleetFuelApiError`, so a resolved call always has its data.
 */
export function createFleetFuelClient(options: FleetFuelClientOptions): FleetFuelClient {
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep = options.sleep ?? wait;
  const random = options.random ?? Math.random;
  const mintKey = options.newIdempotencyKey ?? newIdempotencyKey;

  async function resilientFetch(request: Request): Promise<Response> {
    if (
      requiresIdempotencyKey(request.method, new URL(request.url).pathname) &&
      !request.headers.has(IDEMPOTENCY_HEADER)
    ) {
      request.headers.set(IDEMPOTENCY_HEADER, mintKey());
    }
    const repeatable =
      request.method === 'GET' || request.method === 'DELETE' || request.headers.has(IDEMPOTENCY_HEADER);
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        // A clone per attempt: the body can be sent again, with the same key.
        response = await send(request.clone());
      } catch (error) {
        if (!repeatable || attempt >= retry.maxAttempts) throw error;
        await sleep(retryDelayMs(attempt, retry, random));
        continue;
      }
      if (response.ok) return response;
      const problem = await problemOf(response);
      const retryable =
        isRetryable(response.status, problem.code, repeatable) ||
        (response.status === 409 && problem.code === 'idempotency_conflict');
      if (!retryable || attempt >= retry.maxAttempts) throw new FleetFuelApiError(response.status, problem);
      await sleep(
        retryDelayMs(attempt, retry, random, retryAfterMs(response.headers.get('Retry-After'), Date.now())),
      );
    }
  }

  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: {
      Authorization: `Bearer ${options.apiKey}`,
      ...(options.fleetId ? { 'SVC-Fleet': options.fleetId } : {}),
    },
    fetch: resilientFetch,
  });
}
