import { inject } from 'vitest';
import { type LocalCredentials, readCredentials } from '#local/credentials.ts';
import './provided-context.ts';

export type { LocalCredentials };

let cached: LocalCredentials | undefined;

/**
 * The credentials of the stage under test: the local stack the e2e global setup started, or the
 * deployed stage named by E2E_CREDENTIALS. Read once per test file.
 *
 * @example
 * const credentials = loadCredentials();
 * const prod = api(credentials.base_url);
 */
export function loadCredentials(): LocalCredentials {
  cached ??= readCredentials(inject('e2eCredentialsPath'));
  return cached;
}

/** True when the tests run against the local stack (local-only checks can skip otherwise). */
export function isLocalTarget(): boolean {
  return inject('e2eTarget') === 'local';
}
