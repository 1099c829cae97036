import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { storedHistoryTimes } from '../support/local-table.ts';
import { expectProblem } from './problem.ts';

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const omaha = { latitude: 41.2565, longitude: -95.9345 };

async function newVehicle(extra: Record<string, unknown> = {}) {
  const ref = `GPS-${randomUUID().slice(0, 8)}`;
  const response = await prod.post('/v1/vehicles', { ...company, body: { external_ref: ref, ...extra } });
  return { id: response.json.id as string, ref };
}

describe('POST /v1/locations', () => {
  it('accepts good rows and rejects bad ones individually, with codes and hints', async () => {
    const truck = await newVehicle();
    const parked = await newVehicle();
    await prod.post(`/v1/vehicles/${parked.id}/deactivate`, company);
    const response = await prod.post('/v1/locations', {
      ...company,
      body: {
        locations: [
          { vehicle_id: truck.id, ...omaha, recorded_at: ago(2), fuel_level_percent: 55, speed_mph: 60 },
          { external_ref: truck.ref, ...omaha, recorded_at: ago(1) },
          { external_ref: 'NO-SUCH-TRUCK', ...omaha, recorded_at: ago(1) },
          { vehicle_id: parked.id, ...omaha, recorded_at: ago(1) },
          { vehicle_id: truck.id, latitude: 123, longitude: -95, recorded_at: ago(1) },
          { vehicle_id: truck.id, external_ref: truck.ref, ...omaha, recorded_at: ago(1) },
          { vehicle_id: truck.id, ...omaha, recorded_at: new Date(Date.now() + 3_600_000).toISOString() },
          'not an object',
        ],
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({ accepted: 2, rejected: 6 });
    const codes = response.json.results.map((r: { index: number; status: string; code?: string }) => [
      r.index,
      r.status,
      r.code,
    ]);
    expect(codes).toEqual([
      [0, 'accepted', undefined],
      [1, 'accepted', undefined],
      [2, 'rejected', 'unknown_vehicle'],
      [3, 'rejected', 'vehicle_inactive'],
      [4, 'rejected', 'validation_failed'],
      [5, 'rejected', 'validation_failed'],
      [6, 'rejected', 'validation_failed'],
      [7, 'rejected', 'validation_failed'],
    ]);
    for (const r of response.json.results.filter((x: { status: string }) => x.status === 'rejected')) {
      expect(r.hint.length).toBeGreaterThan(10);
    }
    // A rejected row is shaped like a 422 for it alone: code, hint and the offending fields.
    expect(response.json.results[4]).toEqual({
      index: 4,
      status: 'rejected',
      code: 'validation_failed',
      hint: 'fix the fields in `errors`',
      errors: [{ field: 'latitude', message: 'must be between -90 and 90 degrees' }],
    });
    expect(response.json.results[7].errors).toEqual([{ field: 'item', message: 'must be an object' }]);
  });

  it('413 for more than 500 items or more than 1 MB, for the whole request', async () => {
    const truck = await newVehicle();
    const crumb = { vehicle_id: truck.id, ...omaha, recorded_at: ago(1) };
    expectProblem(
      await prod.post('/v1/locations', { ...company, body: { locations: Array(501).fill(crumb) } }),
      413,
      'batch_too_large',
    );
    const padded = { ...crumb, address: 'x'.repeat(290) };
    expectProblem(
      await prod.post('/v1/locations', {
        ...company,
        body: { locations: Array(500).fill(padded), pad: 'y'.repeat(900_000) },
      }),
      413,
      'batch_too_large',
    );
    expect(
      (await prod.post('/v1/locations', { ...company, body: { locations: Array(500).fill(crumb) } })).status,
    ).toBe(200);
  });
});

describe('POST /v1/locations: a recorded_at that is not RFC 3339', () => {
  it('says per row what is wrong: no offset, or epoch milliseconds, with the instant it means', async () => {
    const truck = await newVehicle();
    const at = new Date(Date.now() - 60_000);
    const local = at.toISOString().slice(0, 19);
    const response = await prod.post('/v1/locations', {
      ...company,
      body: {
        locations: [
          { vehicle_id: truck.id, ...omaha, recorded_at: local },
          { vehicle_id: truck.id, ...omaha, recorded_at: at.getTime() },
          { vehicle_id: truck.id, ...omaha, recorded_at: at.toISOString() },
        ],
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({ accepted: 1, rejected: 2 });
    expect(response.json.results.slice(0, 2)).toEqual([
      {
        index: 0,
        status: 'rejected',
        code: 'validation_failed',
        hint: expect.any(String),
        errors: [
          {
            field: 'recorded_at',
            message: `has no UTC offset: end it with Z (UTC) or the offset of its time zone, e.g. ${local}Z or ${local}-06:00`,
          },
        ],
      },
      {
        index: 1,
        status: 'rejected',
        code: 'validation_failed',
        hint: expect.any(String),
        errors: [
          {
            field: 'recorded_at',
            message: `looks like epoch milliseconds (${at.toISOString()}); send an RFC 3339 date-time, e.g. 2026-11-23T14:05:00Z`,
          },
        ],
      },
    ]);
  });
});

describe('POST /v1/locations: resends and the recorded_at window', () => {
  it('answers 200 to a resent batch both times and keeps each breadcrumb once', async () => {
    const truck = await newVehicle();
    const locations = Array.from({ length: 300 }, (_, i) => ({
      vehicle_id: truck.id,
      latitude: 41 + i / 1000,
      longitude: -95.9,
      recorded_at: new Date(Date.now() - 60_000 - i * 1_000).toISOString(),
    }));
    for (const attempt of [1, 2]) {
      const response = await prod.post('/v1/locations', { ...company, body: { locations } });
      expect(response.status, `attempt ${attempt}: ${response.text}`).toBe(200);
      expect(response.json).toMatchObject({ accepted: 300, rejected: 0 });
    }
    const location = await prod.get(`/v1/vehicles/${truck.id}/location`, company);
    expect(location.json.latitude).toBe(41);
    if (!isLocalTarget()) return;
    const stored = await storedHistoryTimes(credentials.fleets.company, truck.id);
    expect(stored).toHaveLength(300);
    expect(new Set(stored).size).toBe(300);
  });

  it('rejects a breadcrumb older than 90 days or more than 5 minutes ahead, with its code, the field and why', async () => {
    const truck = await newVehicle();
    const response = await prod.post('/v1/locations', {
      ...company,
      body: {
        locations: [
          {
            vehicle_id: truck.id,
            ...omaha,
            recorded_at: new Date(Date.now() - 91 * 86_400_000).toISOString(),
          },
          { vehicle_id: truck.id, ...omaha, recorded_at: new Date(Date.now() + 10 * 60_000).toISOString() },
          {
            vehicle_id: truck.id,
            ...omaha,
            recorded_at: new Date(Date.now() - 89 * 86_400_000).toISOString(),
          },
        ],
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({
      accepted: 1,
      rejected: 2,
      results: [
        {
          index: 0,
          status: 'rejected',
          code: 'validation_failed',
          hint: expect.stringContaining('check the device clock'),
          errors: [
            { field: 'recorded_at', message: 'is more than 90 days old, beyond the position history kept' },
          ],
        },
        {
          index: 1,
          status: 'rejected',
          code: 'validation_failed',
          hint: expect.stringContaining('check the device clock'),
          errors: [{ field: 'recorded_at', message: 'is more than 5 minutes in the future' }],
        },
        { index: 2, status: 'accepted' },
      ],
    });
  });
});

describe('GET /v1/vehicles/{id}/location', () => {
  it('is 404 until the first breadcrumb, then the newest position in mph, rounded, with a freshness grade', async () => {
    const truck = await newVehicle();
    expectProblem(await prod.get(`/v1/vehicles/${truck.id}/location`, company), 404, 'resource_not_found');

    await prod.post('/v1/locations', {
      ...company,
      body: {
        locations: [
          {
            vehicle_id: truck.id,
            // A device's float noise: answered to 5 decimal places.
            latitude: 41.256499999999996,
            longitude: -95.93450000000001,
            recorded_at: ago(1),
            speed_mph: 55.5,
            fuel_level_percent: 40,
            driver_ref: 'D-7',
          },
        ],
      },
    });
    // A late, older breadcrumb must not move the position back.
    await prod.post('/v1/locations', {
      ...company,
      body: { locations: [{ vehicle_id: truck.id, latitude: 40, longitude: -100, recorded_at: ago(30) }] },
    });
    const location = await prod.get(`/v1/vehicles/ext:${truck.ref}/location`, company);
    expect(location.status, location.text).toBe(200);
    expect(location.json).toMatchObject({
      vehicle_id: truck.id,
      ...omaha,
      fuel_level_percent: 40,
      // Sent in mph, stored in km/h, read back in mph as sent.
      speed_mph: 55.5,
      driver_ref: 'D-7',
      freshness: 'live',
    });
    expect(location.json.recorded_at).toMatch(/\.\d{6}Z$/);
    expect(location.json).not.toHaveProperty('speed_kmh');
  });

  it('feeds the vehicle-shortcut form of POST /v1/routes', async () => {
    const truck = await newVehicle({ tank_size_gallons: 150, estimated_mpg: 6 });
    await prod.post('/v1/locations', {
      ...company,
      body: {
        locations: [{ external_ref: truck.ref, ...omaha, recorded_at: ago(1), fuel_level_percent: 40 }],
      },
    });
    const route = await prod.post('/v1/routes', {
      ...company,
      idempotencyKey: randomUUID(),
      body: {
        vehicle_id: `ext:${truck.ref}`,
        destination: { latitude: 39.7392, longitude: -104.9903, name: 'Denver' },
        min_arrival_fuel_percent: 15,
      },
    });
    expect(route.status, route.text).toBe(201);
    expect(route.json).toMatchObject({
      vehicle_id: truck.id,
      origin: omaha,
      fuel: { start_fuel_percent: 40 },
    });
  });
});
