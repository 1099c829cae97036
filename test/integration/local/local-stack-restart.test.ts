import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCredentials } from '#local/credentials.ts';
import { type LocalStack, startLocalStack } from '#local/stack.ts';
import type { StartupEvent } from '#local/startup-report.ts';
import { api } from '#test/support/http-client.ts';

/**
 * `npm start` keeps its data and keys across restarts: the whole local stack
 * (DynamoDB Local on disk, seed, stage servers) started twice on one data folder, the way
 * bin/local.ts starts it, in a temporary folder so nothing touches the developer's `.local/`.
 */
const folder = mkdtempSync(join(tmpdir(), 'fleet-fuel-restart-'));
const dbPath = join(folder, 'dynamodb');
const credentialsPath = join(folder, 'credentials.json');
let running: LocalStack | undefined;

afterAll(async () => {
  await running?.stop();
  rmSync(folder, { recursive: true, force: true });
});

async function start(): Promise<{ stack: LocalStack; events: StartupEvent[] }> {
  const events: StartupEvent[] = [];
  running = await startLocalStack({
    port: 0,
    sandboxPort: 0,
    dbPath,
    credentialsPath,
    cursorSigningKey: 'restart-test-cursor-key-0123456789abcdef',
    quiet: true,
    print: () => {},
    onProgress: (event) => events.push(event),
  });
  return { stack: running, events };
}

async function stop(): Promise<void> {
  await running?.stop();
  running = undefined;
}

const seedOutcome = (events: StartupEvent[]) => events.find((event) => event.step === 'seed');

describe('the local stack on a kept data folder', () => {
  it('keeps vehicles and keys across a restart, without seeding the demo world twice', {
    timeout: 120_000,
  }, async () => {
    const first = await start();
    expect(seedOutcome(first.events)).toMatchObject({ outcome: { world: 'created', keys: 'issued' } });
    expect(first.events.find((event) => event.step === 'dynamodb')).toMatchObject({ dbPath });
    const firstCredentials = readCredentials(credentialsPath);
    const prod = api(firstCredentials.base_url);
    const created = await prod.post('/v1/vehicles', {
      key: firstCredentials.keys.company_live,
      body: { external_ref: 'KEPT-1', name: 'Survives restarts' },
    });
    expect(created.status, created.text).toBe(201);
    await stop();

    const second = await start();
    expect(seedOutcome(second.events)).toMatchObject({ outcome: { world: 'kept', keys: 'reused' } });
    expect(second.events.find((event) => event.step === 'tables')).toMatchObject({
      created: [],
      existing: ['fleet-fuel-prod', 'fleet-fuel-sandbox', 'fleet-fuel-control'],
    });
    const secondCredentials = readCredentials(credentialsPath);
    expect(secondCredentials.keys).toEqual(firstCredentials.keys);
    expect(secondCredentials.operator_token).toBe(firstCredentials.operator_token);
    expect(secondCredentials.fleets).toEqual(firstCredentials.fleets);

    const again = api(secondCredentials.base_url);
    const vehicle = await again.get(`/v1/vehicles/${encodeURIComponent('ext:KEPT-1')}`, {
      key: firstCredentials.keys.company_live,
    });
    expect(vehicle.status, vehicle.text).toBe(200);
    const fleets = await again.get('/v1/fleets', { key: firstCredentials.keys.partner_live });
    expect(fleets.status, fleets.text).toBe(200);
    expect((fleets.json as { data: { id: string }[] }).data.map((fleet) => fleet.id)).toEqual(
      firstCredentials.fleets.partner_granted,
    );
    await stop();
  });

  it('issues new keys over the same data when the credentials file is gone, and the old ones stop working', {
    timeout: 120_000,
  }, async () => {
    const before = readCredentials(credentialsPath);
    rmSync(credentialsPath);

    const { events } = await start();
    expect(seedOutcome(events)).toMatchObject({ outcome: { world: 'kept', keys: 'issued' } });
    const after = readCredentials(credentialsPath);
    expect(after.keys.company_live).not.toBe(before.keys.company_live);
    expect(after.fleets).toEqual(before.fleets);

    const prod = api(after.base_url);
    expect((await prod.get('/v1/me', { key: before.keys.company_live })).status).toBe(401);
    const vehicle = await prod.get(`/v1/vehicles/${encodeURIComponent('ext:KEPT-1')}`, {
      key: after.keys.company_live,
    });
    expect(vehicle.status, vehicle.text).toBe(200);
    await stop();
  });
});
