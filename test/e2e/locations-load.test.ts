import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { storedHistoryTimes } from '../support/local-table.ts';

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };

const HOUR_MS = 3_600_000;
const BREADCRUMBS = 20_000;
const BATCH = 500;

/**
 * Ingest under load, bounded and on loopback: one truck sends 20,000 breadcrumbs recorded within one UTC
 * hour (one every 180 ms) in 500-item batches, some breadcrumbs sent twice — a retry sharing half
 * its breadcrumbs with the batch it races (both contend for the same new ones), and the whole last
 * batch again. Before history items were bounded, the 23rd batch made the hour's item too large and every later one answered 500.
 */
describe('POST /v1/locations under load: one vehicle, 20,000 breadcrumbs in one hour', () => {
  it('answers 200 to every batch, stores every distinct breadcrumb once, keeps the latest position current', async () => {
    const ref = `LOAD-${randomUUID().slice(0, 8)}`;
    const created = await prod.post('/v1/vehicles', { ...company, body: { external_ref: ref } });
    const vehicleId = created.json.id as string;
    // The last full UTC hour: all of it in the past, all of it one history hour.
    const hourMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - HOUR_MS;
    const spacingMs = HOUR_MS / BREADCRUMBS;
    const crumbs = Array.from({ length: BREADCRUMBS }, (_, i) => ({
      vehicle_id: vehicleId,
      latitude: 35 + (i % 1000) / 1000,
      longitude: -97 - Math.floor(i / 1000) / 100,
      recorded_at: new Date(hourMs + i * spacingMs).toISOString(),
      fuel_level_percent: 90 - i / 1000,
      speed_mph: 55,
    }));
    const batches = Array.from({ length: BREADCRUMBS / BATCH }, (_, b) =>
      crumbs.slice(b * BATCH, (b + 1) * BATCH),
    );

    const started = performance.now();
    const statuses: number[] = [];
    const post = async (locations: unknown[]) => {
      const response = await prod.post('/v1/locations', { ...company, body: { locations } });
      statuses.push(response.status);
      expect(response.status, response.text).toBe(200);
      expect(response.json).toMatchObject({ accepted: locations.length, rejected: 0 });
    };
    for (const [b, batch] of batches.entries()) {
      // Every other batch races a retry overlapping it by half: this batch's second half and the next
      // one's first half, none stored yet. Both requests contend for the same new breadcrumbs from
      // different starting points (one fills the last item's room with what the other puts in a
      // new item), the case where a conditional write lost and another of the same attempt won.
      const next = batches[b + 1] ?? [];
      const resend = b % 2 === 1 ? [...batch.slice(BATCH / 2), ...next.slice(0, BATCH / 2)] : undefined;
      await Promise.all([post(batch), ...(resend ? [post(resend)] : [])]);
    }
    await post(batches.at(-1) as unknown[]);
    const seconds = (performance.now() - started) / 1000;
    console.info(
      `load: ${statuses.length} POSTs (${BREADCRUMBS} distinct breadcrumbs) in ${seconds.toFixed(1)} s, all ${[...new Set(statuses)].join('/')}`,
    );
    expect(statuses.every((s) => s === 200)).toBe(true);

    const location = await prod.get(`/v1/vehicles/${vehicleId}/location`, company);
    expect(location.status, location.text).toBe(200);
    expect(Date.parse(location.json.recorded_at)).toBe(
      Date.parse((crumbs.at(-1) as { recorded_at: string }).recorded_at),
    );

    if (!isLocalTarget()) return;
    const stored = await storedHistoryTimes(credentials.fleets.company, vehicleId);
    expect(stored).toHaveLength(BREADCRUMBS);
    expect(new Set(stored).size).toBe(BREADCRUMBS);
  }, 180_000);
});
