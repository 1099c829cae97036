import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LocalCredentialsSeed } from './demo-seed.ts';

/**
 * The contract of `.local/credentials.json` (DESIGN.md): the local stack writes it, the e2e tests
 * and the README's examples read it, and a deployed stage can be described by the same file.
 */
export interface LocalCredentials extends LocalCredentialsSeed {
  base_url: string;
  sandbox_base_url: string;
}

export const DEFAULT_CREDENTIALS_PATH = '.local/credentials.json';

const KEY_NAMES = [
  'partner_live',
  'company_live',
  'company_test',
  'company_readonly',
  'company_revoked',
  'company_suspended',
] as const satisfies readonly (keyof LocalCredentials['keys'])[];

/** Writes the file atomically (temp file + rename), readable by the owner only: it holds keys. */
export function writeCredentials(path: string, credentials: LocalCredentials): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/** Reads and checks a credentials file; the error names the file and the first missing field. */
export function readCredentials(path: string): LocalCredentials {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read credentials file ${path}: ${(error as Error).message}`);
  }
  const problem = findProblem(parsed);
  if (problem) throw new Error(`Credentials file ${path} is not in the expected shape: ${problem}`);
  return parsed as LocalCredentials;
}

function findProblem(value: unknown): string | undefined {
  const isObject = (candidate: unknown): candidate is Record<string, unknown> =>
    typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate);
  const isText = (candidate: unknown) => typeof candidate === 'string' && candidate.length > 0;
  if (!isObject(value)) return 'not a JSON object';
  for (const field of ['base_url', 'sandbox_base_url', 'operator_token'] as const) {
    if (!isText(value[field])) return `${field} is missing`;
  }
  const { fleets, keys } = value;
  if (!isObject(fleets) || !isText(fleets.company) || !isText(fleets.company_sandbox)) {
    return 'fleets.company / fleets.company_sandbox missing';
  }
  if (!Array.isArray(fleets.partner_granted) || !fleets.partner_granted.every(isText)) {
    return 'fleets.partner_granted must be a list of fleet ids';
  }
  if (!isObject(keys)) return 'keys is missing';
  for (const name of KEY_NAMES) if (!isText(keys[name])) return `keys.${name} is missing`;
  return undefined;
}
