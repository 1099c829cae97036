import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Far longer than filling a folder takes on a loaded machine: a staging folder this old was left by a killed run. */
const STALE_AFTER_MS = 30 * 60_000;

/**
 * `folder`, made once by `fill` and only ever seen complete: `fill` writes into a fresh staging
 * folder beside it, which is then renamed into place (a rename is atomic). Processes that race
 * (two test files, two `npm test`s) may each fill a staging folder; the first rename wins and the
 * others discard theirs. A run killed mid-fill leaves only its staging folder, which a later call
 * removes once it is stale.
 */
export async function completeFolder(
  folder: string,
  fill: (staging: string) => Promise<void>,
): Promise<string> {
  if (existsSync(folder)) return folder;
  mkdirSync(dirname(folder), { recursive: true });
  removeStaleStaging(folder);
  const staging = mkdtempSync(`${folder}${STAGING_MARK}`);
  try {
    await fill(staging);
    renameSync(staging, folder);
  } catch (error) {
    // Another process renamed its staging folder into place first: theirs is as good as ours.
    if (!existsSync(folder)) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return folder;
}

const STAGING_MARK = '.filling-';

function removeStaleStaging(folder: string): void {
  const prefix = `${basename(folder)}${STAGING_MARK}`;
  for (const name of readdirSync(dirname(folder))) {
    if (!name.startsWith(prefix)) continue;
    const path = join(dirname(folder), name);
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_AFTER_MS)
        rmSync(path, { recursive: true, force: true });
    } catch {
      // Renamed or removed by its owner meanwhile.
    }
  }
}
