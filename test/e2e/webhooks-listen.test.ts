import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { guidanceClient, secondsAgo } from './support-guidance.ts';

/**
 * `npm run webhooks:listen` against the local stack, which the e2e setup starts as `npm start` does
 * (no flag): the real command registers its loopback receiver with the company key,
 * receives a test send and a real guidance.updated, verifies their signatures and prints each as a
 * readable line, and deletes its endpoint on Ctrl-C.
 */
const DALLAS = { latitude: 32.7767, longitude: -96.797 };
const DENVER = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };

let listener: ChildProcess | undefined;
const output: string[] = [];

afterAll(() => {
  if (listener && listener.exitCode === null) listener.kill('SIGKILL');
});

async function lineMatching(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const line of output) {
      const match = pattern.exec(line);
      if (match) return match;
    }
    if (Date.now() > deadline)
      throw new Error(`no line matching ${pattern}; the listener printed:\n${output.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(isLocalTarget())('npm run webhooks:listen', () => {
  it('registers itself, verifies and prints a test send and a real event, and deletes its endpoint on exit', {
    timeout: 60_000,
  }, async () => {
    listener = spawn(
      process.execPath,
      ['--import', 'tsx', 'bin/webhooks-listen.ts', '--events', 'vehicle.fuel_low,guidance.updated'],
      {
        cwd: repoRoot,
        env: { ...process.env, LOCAL_CREDENTIALS_PATH: inject('e2eCredentialsPath') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => listener?.once('exit', (code) => resolve(code)));
    let pending = '';
    const collect = (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      output.push(...lines);
    };
    listener.stdout?.on('data', collect);
    listener.stderr?.on('data', collect);

    const [, endpointId] = await lineMatching(
      /Listening on http:\/\/127\.0\.0\.1:\d+\/webhooks as endpoint (whk_\w+)/,
    );
    const registered = await prod.get(`/v1/webhooks/${endpointId}`, company);
    expect(registered.status, registered.text).toBe(200);
    expect(registered.json).toMatchObject({ event_types: ['vehicle.fuel_low', 'guidance.updated'] });

    const sent = await prod.post(`/v1/webhooks/${endpointId}/test`, {
      ...company,
      body: { event_type: 'vehicle.fuel_low' },
    });
    expect(sent.status, sent.text).toBe(200);
    // 204 is the listener's answer once the signature holds (a bad one gets 400).
    const result = sent.json as { delivered: boolean; status_code: number; event: { id: string } };
    expect(result).toMatchObject({ delivered: true, status_code: 204 });
    await lineMatching(new RegExp(`✓ vehicle\\.fuel_low ${result.event.id} .*\\(test\\)$`));

    // A real event, as the README's quickstart ends guidance: one readable line saying what changed.
    const guidance = guidanceClient(prod, company);
    const truck = await guidance.newTruck();
    await guidance.drive(truck, [{ ...DALLAS, recorded_at: secondsAgo(30), fuel_level_percent: 30 }]);
    const started = await guidance.start(`ext:${truck.ref}`, { destination: DENVER });
    const cancelled = await prod.delete(`/v1/vehicles/ext:${truck.ref}/guidance`, company);
    expect(cancelled.status, cancelled.text).toBe(204);
    const [cleared] = await lineMatching(
      new RegExp(
        `✓ guidance\\.updated evt_\\w+ #\\d+ · vehicle ${truck.ref} \\(${truck.id}\\) · .*change: cleared.*$`,
      ),
    );
    expect(cleared).toContain(`guidance_id: ${started.json.id}`);
    expect(cleared).toContain('reason: caller_cancelled');

    listener.kill('SIGINT');
    expect(await exited).toBe(0);
    await lineMatching(new RegExp(`Deleted endpoint ${endpointId}`));
    const gone = await prod.get(`/v1/webhooks/${endpointId}`, company);
    expect(gone.status, gone.text).toBe(404);
  });
});
