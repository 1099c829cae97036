import { describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
// Amarillo, TX: on I-40, where the embedded catalog has several stops within 50 miles.
const amarillo = { latitude: 35.222, longitude: -101.831 };

interface NearbyStation {
  id: string;
  chain: string;
  fuels: string[];
  distance_miles: number;
  diesel_price_usd_per_gallon: number;
  discount_usd_per_gallon: number;
  net_price_usd_per_gallon: number;
  price_updated_at: string;
  price_is_stale: boolean;
}

describe('GET /v1/stations', () => {
  it('returns stations within the radius, nearest first, priced net of the fleet discount', async () => {
    const response = await prod.get('/v1/stations', {
      ...company,
      query: { ...amarillo, radius_miles: 50, limit: 25 },
    });
    expect(response.status, response.text).toBe(200);
    const stations: NearbyStation[] = response.json.data;
    expect(stations.length).toBeGreaterThan(0);
    expect(response.json.next_cursor).toBeNull();
    expect(response.json.catalog_version).toBeTypeOf('string');
    const distances = stations.map((s) => s.distance_miles);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(Math.max(...distances)).toBeLessThanOrEqual(50);
    for (const s of stations) {
      expect(s.id).toMatch(/^stn_/);
      expect(s.price_updated_at).toMatch(/\.\d{6}Z$/);
      expect(s.net_price_usd_per_gallon).toBeCloseTo(
        s.diesel_price_usd_per_gallon - s.discount_usd_per_gallon,
        3,
      );
    }
    // The demo company has 12¢ at Love's and nothing at TA (seeded discounts).
    for (const s of stations.filter((s) => s.chain === "Love's"))
      expect(s.discount_usd_per_gallon).toBe(0.12);
    for (const s of stations.filter((s) => s.chain === 'TA')) expect(s.discount_usd_per_gallon).toBe(0);
  });

  it('filters by chain and fuel and honours limit', async () => {
    const all: NearbyStation[] = (
      await prod.get('/v1/stations', { ...company, query: { ...amarillo, radius_miles: 50, limit: 25 } })
    ).json.data;
    const chain = all[0]?.chain ?? 'TA';
    const byChain: NearbyStation[] = (
      await prod.get('/v1/stations', { ...company, query: { ...amarillo, radius_miles: 50, chain } })
    ).json.data;
    expect(byChain.length).toBeGreaterThan(0);
    expect(byChain.every((s) => s.chain === chain)).toBe(true);
    const def: NearbyStation[] = (
      await prod.get('/v1/stations', {
        ...company,
        query: { ...amarillo, radius_miles: 50, fuel: 'def', limit: 25 },
      })
    ).json.data;
    expect(def.every((s) => s.fuels.includes('def'))).toBe(true);
    const one = await prod.get('/v1/stations', {
      ...company,
      query: { ...amarillo, radius_miles: 50, limit: 1 },
    });
    expect(one.json.data).toHaveLength(1);
  });

  it('refuses a radius over 50 miles, a limit over 25, and missing coordinates with 422', async () => {
    const wide = await prod.get('/v1/stations', { ...company, query: { ...amarillo, radius_miles: 51 } });
    expectProblem(wide, 422, 'validation_failed');
    expect(wide.json.errors.map((e: { field: string }) => e.field)).toEqual(['radius_miles']);
    const many = await prod.get('/v1/stations', { ...company, query: { ...amarillo, limit: 26 } });
    expect(many.json.errors.map((e: { field: string }) => e.field)).toEqual(['limit']);
    const nowhere = await prod.get('/v1/stations', { ...company, query: { radius_miles: 10 } });
    expect(nowhere.json.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'latitude',
      'longitude',
    ]);
  });

  it('charges every returned station to the station-query budget', async () => {
    const usage = async () =>
      (await prod.get('/v1/me', company)).json.plan.station_results_this_month as number;
    const before = await usage();
    const response = await prod.get('/v1/stations', {
      ...company,
      query: { ...amarillo, radius_miles: 50, limit: 5 },
    });
    expect(await usage()).toBeGreaterThanOrEqual(before + response.json.data.length);
  });

  it('needs guidance:read (the read-only key has it) and answers nothing in the ocean', async () => {
    const readonly = await prod.get('/v1/stations', {
      key: credentials.keys.company_readonly,
      query: { latitude: 30, longitude: -140, radius_miles: 50 },
    });
    expect(readonly.status).toBe(200);
    expect(readonly.json.data).toEqual([]);
  });
});
