import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';

/**
 * The README's quickstart is `examples/quickstart.ts`; running it here against the stack under test
 * keeps the README's first hour from rotting. It receives webhooks on loopback, so it runs against
 * the local stack only, started as `npm start` starts it (no flag: it accepts loopback receivers).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runQuickstart(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'examples/quickstart.ts'],
      {
        cwd: root,
        // Only what the script reads, so a developer's FLEET_FUEL_* variables cannot redirect it.
        env: {
          PATH: process.env.PATH ?? '',
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          ...env,
        },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe.runIf(isLocalTarget())('the README quickstart (examples/quickstart.ts)', () => {
  it('runs every step against the local stack and exits 0', { timeout: 90_000 }, async () => {
    const run = await runQuickstart({ LOCAL_CREDENTIALS_PATH: inject('e2eCredentialsPath') });
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(0);
    for (const step of [
      '1. Create a vehicle',
      '2. Send a breadcrumb, read the latest position',
      '3. Start guidance to Denver, read it',
      '4. Receive webhooks on a loopback receiver',
      '5. Plan a fuel-optimized route',
    ]) {
      expect(run.stdout).toContain(step);
    }
    expect(run.stdout).toMatch(/verified test event guidance\.updated evt_/);
    expect(run.stdout).toMatch(
      /verified guidance\.updated evt_\w+ \(change cleared, reason caller_cancelled\)/,
    );
    expect(run.stdout).toMatch(/rte_\w+: [\d.]+ miles, plan (ok|no_stop_needed)/);
    expect(run.stdout).toContain('Quickstart complete.');
  });

  it('runs as `npm run smoke` against a base URL and a key, skipping the loopback receiver and saying so', {
    timeout: 90_000,
  }, async () => {
    const credentials = loadCredentials();
    const run = await runQuickstart({
      FLEET_FUEL_BASE_URL: credentials.base_url,
      FLEET_FUEL_API_KEY: credentials.keys.company_live,
      FLEET_FUEL_SKIP_WEBHOOKS: '1',
    });
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain(`Quickstart against ${credentials.base_url.replace(/\/+$/, '')}`);
    expect(run.stdout).toContain(
      '4. Receive webhooks: skipped (a deployed stage delivers to public HTTPS receivers only)',
    );
    expect(run.stdout).toMatch(/gd_\w+ cancelled/);
    expect(run.stdout).not.toContain('verified test event');
    expect(run.stdout).toMatch(/rte_\w+: [\d.]+ miles, plan (ok|no_stop_needed)/);
    expect(run.stdout).toContain('Quickstart complete.');
  });

  it('exits non-zero, naming the step and the API’s answer, when a call fails', {
    timeout: 90_000,
  }, async () => {
    const credentials = loadCredentials();
    const run = await runQuickstart({
      FLEET_FUEL_BASE_URL: credentials.base_url,
      FLEET_FUEL_API_KEY: credentials.keys.company_revoked,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('Quickstart complete.');
    expect(run.stderr).toContain('Quickstart failed at "1. Create a vehicle"');
    expect(run.stderr).toContain('POST /v1/vehicles answered 401, expected 201');
    expect(run.stderr).toContain('key_revoked');
  });
});
