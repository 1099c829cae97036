import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { chooseChromium } from './chromium-choice.ts';
import { registryChromium } from './registry-chromium.ts';

/**
 * Headless Chromium for the browser tests, in a fresh profile folder that is deleted on close. The
 * browser is CHROMIUM_PATH's, else Debian's package, else the build that `npm install` brought with
 * @sparticuz/chromium (chromium-choice.ts); never one downloaded at run time. A browser that cannot
 * be found fails the test with what to do: a browser test that quietly skips would pass a build
 * that never ran it.
 */
export async function launchChromium(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const choice = chooseChromium({
    chromiumPath: process.env.CHROMIUM_PATH,
    platform: process.platform,
    arch: process.arch,
    exists: existsSync,
  });
  const executablePath = choice.source === 'registry' ? await registryChromium() : choice.executablePath;
  const profile = mkdtempSync(join(tmpdir(), 'fleet-fuel-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
    viewport: { width: 1400, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
