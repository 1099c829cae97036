import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export const DEFAULT_CURSOR_KEY_PATH = '.local/cursor-signing-key';

/**
 * The local stack's cursor signing key, created once and kept in `.local/` (git-ignored), so a
 * cursor handed out before a restart still verifies after it (`npm start` keeps the data in
 * `.local/dynamodb` too). Deployed stages take theirs from Secrets Manager instead.
 */
export function loadOrCreateCursorSigningKey(path = DEFAULT_CURSOR_KEY_PATH): string {
  try {
    const existing = readFileSync(path, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // Not there yet: create it below.
  }
  const key = randomBytes(32).toString('base64url');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  return key;
}

/** A throwaway key for runs whose cursors need not outlive the process (tests). */
export function randomCursorSigningKey(): string {
  return randomBytes(32).toString('base64url');
}
