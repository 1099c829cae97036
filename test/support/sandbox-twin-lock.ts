import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';
import './provided-context.ts';

/** Longer than any sandbox test file runs: a lock this old was left by a run that crashed. */
const STALE_AFTER_MS = 10 * 60_000;

/**
 * The company's sandbox twin is one shared simulation: a test file that advances, sets scenarios
 * or resets it must not run while another one does (vitest runs files in parallel when it has the
 * cores). Holding this lock for the file's whole run (beforeAll → afterAll) makes such files take
 * turns. The lock is a folder beside the credentials file: creating a folder is atomic.
 *
 * @example
 * let release: () => void;
 * beforeAll(async () => { release = await holdSandboxTwin(); });
 * afterAll(() => release());
 */
export async function holdSandboxTwin(timeoutMs = 55_000): Promise<() => void> {
  const lock = join(dirname(inject('e2eCredentialsPath')), 'sandbox-twin.lock');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (isStale(lock)) rmSync(lock, { recursive: true, force: true });
    else if (Date.now() > deadline)
      throw new Error(`Another test file kept the sandbox twin (${lock}) too long`);
    else await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function isStale(lock: string): boolean {
  try {
    return Date.now() - statSync(lock).mtimeMs > STALE_AFTER_MS;
  } catch {
    return false;
  }
}
