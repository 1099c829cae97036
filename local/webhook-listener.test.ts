import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret, signPayload } from '#shared/webhooks/domain/signature.ts';
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
      '21:30:05 ✓ vehicle.fuel_low evt_1 #0 · vehicle T-12 (veh_1) · fuel_percent: 18 (test)',
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
  const line = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    describeEvent(JSON.stringify({ id: 'evt_9', type, sequence: 12, fleet_id: 'flt_1', data, ...extra }));

  it('says what a guidance.updated changed, about which vehicle', () => {
    const cleared = line('guidance.updated', {
      vehicle_id: 'veh_1',
      external_ref: 'TRUCK-042',
      guidance_id: 'gd_1',
      change: 'cleared',
      status: 'cancelled',
      phase: 'stop_recommended',
      stop_ids: [],
      reason: 'caller_cancelled',
    });

    expect(cleared).toBe(
      'guidance.updated evt_9 #12 · vehicle TRUCK-042 (veh_1) · guidance_id: gd_1, change: cleared, ' +
        'status: cancelled, phase: stop_recommended, reason: caller_cancelled',
    );
  });

  it('lists a few ids of a list and counts the rest, names a station, joins a position', () => {
    const refreshed = line('guidance.updated', {
      vehicle_id: 'veh_1',
      external_ref: null,
      change: 'refreshed',
      stop_ids: ['gds_1', 'gds_2', 'gds_3', 'gds_4', 'gds_5'],
    });
    const arrived = line('vehicle.stop_arrived', {
      vehicle_id: 'veh_1',
      external_ref: 'T-7',
      station: { id: 'stn_1', name: "Love's Travel Stop Amarillo", latitude: 35.2, longitude: -101.8 },
      latitude: 35.19,
      longitude: -101.83,
      trip_id: null,
    });

    expect(refreshed).toBe(
      'guidance.updated evt_9 #12 · vehicle veh_1 · change: refreshed, stop_ids: gds_1 gds_2 gds_3 +2 more',
    );
    expect(arrived).toBe(
      "vehicle.stop_arrived evt_9 #12 · vehicle T-7 (veh_1) · station: Love's Travel Stop Amarillo, position: 35.19, -101.83",
    );
  });

  it('keeps one event on one line: long values are cut', () => {
    const long = line('fleet.provisioned', { fleet_id: 'flt_2', name: 'x'.repeat(200) });

    expect(long).toBe(`fleet.provisioned evt_9 #12 · fleet_id: flt_2, name: ${'x'.repeat(59)}…`);
    expect(line('fleet.provisioned', { name: 'a\nb' })).not.toContain('\n');
  });

  it('marks a test send', () => {
    expect(line('vehicle.offline', { vehicle_id: 'veh_1' }, { test: true })).toBe(
      'vehicle.offline evt_9 #12 · vehicle veh_1 (test)',
    );
  });

  it('survives a body that is not an envelope', () => {
    expect(describeEvent('nope')).toBe('a signed body that is not JSON (4 bytes)');
    expect(describeEvent('{"type":"fleet.provisioned","id":"evt_2"}')).toBe('fleet.provisioned evt_2');
  });
});
