import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { completeFolder } from './complete-folder.ts';

const run = promisify(execFile);

/**
 * The Chromium that the npm package @sparticuz/chromium carries inside itself (Brotli archives in
 * its `bin/`), unpacked on first use into `node_modules/.cache/sparticuz-chromium/<version>/` and
 * reused after: about 200 MB, a few seconds once. Nothing is downloaded: the package fetches only
 * when `executablePath()` is handed a URL, and it is handed none.
 */
export async function registryChromium(): Promise<string> {
  const entry = resolvePackage();
  const packageDir = join(dirname(entry), '..', '..');
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const folder = join(packageDir, '..', '..', '.cache', 'sparticuz-chromium', version);
  await completeFolder(folder, (staging) => unpack(entry, staging));
  return join(folder, 'chromium');
}

function resolvePackage(): string {
  try {
    return createRequire(import.meta.url).resolve('@sparticuz/chromium');
  } catch {
    throw new Error('@sparticuz/chromium is not installed: run `npm install` (it is a devDependency).');
  }
}

/**
 * `executablePath()` unpacks the browser, its fonts and SwiftShader into `os.tmpdir()`, which Node
 * reads from TMPDIR: a child process with TMPDIR set to the staging folder unpacks there, and this
 * process's temporary folder stays its own.
 */
async function unpack(entry: string, staging: string): Promise<void> {
  const script =
    'require(process.argv[1]).executablePath().catch((error) => { console.error(error); process.exit(1); });';
  try {
    await run(process.execPath, ['-e', script, entry], { env: { ...process.env, TMPDIR: staging } });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(
      `Could not unpack the Chromium in @sparticuz/chromium into ${staging}: ${stderr || String(error)}`,
    );
  }
  if (!existsSync(join(staging, 'chromium'))) {
    throw new Error(
      `@sparticuz/chromium unpacked no \`chromium\` into ${staging}: its layout is not the one this code knows.`,
    );
  }
}
