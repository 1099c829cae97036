import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret, signPayload } from '../shared/domain/webhooks/signature.ts';
import { describeEvent, startWebhookListener, type WebhookListener } from './webhook-listener.ts';

const secret = generateWebhookSecret();
const envelope = {
  id: 'evt_1',
  type: 'vehicle.fuel_low',
  sequence: 0,
  fleet_id: 'flt_1',
  // A test send is marked in the envelope, not in data.
  test: true,
  data: { vehicle_id: 'veh_1', external_ref: 'T-12', fuel_percent: 18 },
};
const body = JSON.stringify(envelope);
const printed: string[] = [];
let listener: WebhookListener;

beforeAll(async () => {
  listener = await startWebhookListener({
    port: 0,
    secrets: () => [secret],
    print: (line) => printed.push(line),
    now: () => new Date('2026-11-23T21:30:05Z'),
  });
});
afterAll(() => listener.close());

const deliver = (raw: string, signature: string) =>
  fetch(listener.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-event-type': 'vehicle.fuel_low',
      'x-service-signature': signature,
    },
    body: raw,
  });

describe('the webhooks:listen receiver', () => {
  it('accepts a delivery signed with the endpoint secret and prints it as one line', async () => {
    printed.length = 0;
    const response = await deliver(body, signPayload([secret], body, Math.floor(Date.now() / 1000)));

    expect(response.status).toBe(204);
    expect(printed).toEqual([
      '21:30:05 ✓ vehicle.fuel_low evt_1 #0 fleet flt_1 vehicle_id=veh_1 external_ref=T-12 (test)',
    ]);
  });

  it('refuses a tampered body or another secret with 400 and the reason', async () => {
    printed.length = 0;
    const signature = signPayload([secret], body, Math.floor(Date.now() / 1000));
    const tampered = await deliver(body.replace('"fuel_percent":18', '"fuel_percent":81'), signature);
    const foreign = await deliver(
      body,
      signPayload([generateWebhookSecret()], body, Math.floor(Date.now() / 1000)),
    );

    expect([tampered.status, foreign.status]).toEqual([400, 400]);
    expect(await tampered.text()).toBe('no_matching_signature');
    expect(printed).toEqual([
      '21:30:05 ✗ refused vehicle.fuel_low: no_matching_signature',
      '21:30:05 ✗ refused vehicle.fuel_low: no_matching_signature',
    ]);
  });
});

describe('describeEvent', () => {
  it('survives a body that is not an envelope', () => {
    expect(describeEvent('nope')).toBe('a signed body that is not JSON (4 bytes)');
    expect(describeEvent('{"type":"fleet.provisioned","id":"evt_2"}')).toBe('fleet.provisioned evt_2');
  });
});
