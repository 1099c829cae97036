import { type ProblemMessage, problemMessage } from '../problem.ts';
import type { SandboxSnapshot } from '../snapshot.ts';

/** A refused call, carrying what the page shows the person. */
export class SandboxApiError extends Error {
  constructor(readonly problem: ProblemMessage) {
    super(problem.text);
  }
}

/**
 * The sandbox tools, called on the page's own origin (the sandbox stage serves both), with the
 * test key as a bearer token. Nothing else is ever fetched.
 */
export function sandboxApi(key: string, fetchImpl: typeof fetch = fetch) {
  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const response = await fetchImpl(path, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: 'omit',
      cache: 'no-store',
    });
    const payload: unknown = await response.json().catch(() => null);
    if (!response.ok)
      throw new SandboxApiError(problemMessage(response.status, response.statusText, payload));
    return payload as T;
  }
  return {
    simulation: () => call<SandboxSnapshot>('GET', '/v1/sandbox/simulation'),
    advance: (minutes: number) => call<SandboxSnapshot>('POST', '/v1/sandbox/advance', { minutes }),
    reset: () => call<unknown>('POST', '/v1/sandbox/reset'),
    setScenario: (vehicleId: string, scenario: string) =>
      call<unknown>('POST', `/v1/sandbox/vehicles/${encodeURIComponent(vehicleId)}/scenario`, { scenario }),
  };
}

export type SandboxApi = ReturnType<typeof sandboxApi>;
