import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readinessResource } from '#shared/admin/api/serializers.ts';
import { readReadiness } from '#shared/admin/usecases/readiness.ts';
import { stableId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import { createStationCatalogStore } from '#shared/stations/store/station-catalog.ts';
import { reportPriceFreshness } from '#shared/stations/usecases/price-freshness.ts';
import { priceFreshnessDeps, readinessDeps } from '#shared/stations/wiring/catalog-readiness.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { testInfrastructure } from '#test/support/infrastructure.ts';

// The readiness report and the freshness job through their wiring, against DynamoDB Local: the
// synthetic catalog before any import, then an imported one, then a refused file after it.

const NOW = Date.parse('2026-11-28T12:00:00Z');
const client = testDocumentClient();
let table: string;
beforeAll(async () => {
  table = await createTestTable(client, 'readiness');
});
afterAll(() => deleteTestTable(client, table));

const station = (i: number): Station => ({
  id: stableId('station', `r${i}`),
  name: `Stop ${i}`,
  chain: 'TA',
  latitude: 35 + i / 100,
  longitude: -97,
  address: '',
  state: 'OK',
  amenities: [],
  fuels: ['diesel'],
  dieselPriceUsdPerGallon: 3.5,
  priceUpdatedAtMs: NOW - 20 * 3_600_000,
});

describe('readiness and price freshness against the table', () => {
  it('reports the synthetic catalog on production as not ready, until a file is published', async () => {
    const infra = testInfrastructure({ tableName: table, clock: fixedClock(NOW), stage: 'prod' });

    const before = readinessResource(await readReadiness(readinessDeps(infra)));

    expect(before.ready).toBe(false);
    expect(before.station_catalog.source).toBe('synthetic');
    // The embedded catalog has stops along every interstate, priced as of now.
    expect(before.station_catalog.station_count).toBeGreaterThan(500);
    expect(before.station_catalog.stale).toBe(false);
    expect(before.problems).toEqual([expect.stringContaining('synthetic station catalog')]);
    expect((await reportPriceFreshness({ ...priceFreshnessDeps(infra), report: () => {} })).source).toBe(
      'synthetic',
    );
  });

  it('reports the published catalog from its pointer, then a refused file after it', async () => {
    const infra = testInfrastructure({ tableName: table, clock: fixedClock(NOW), stage: 'prod' });
    const store = createStationCatalogStore(client, table);
    await store.publish(
      {
        version: 'import-test-1',
        count: 3,
        importedAt: '2026-11-28T06:00:00.000Z',
        source: 's3://feed/incoming/good.csv',
        newestPriceUpdatedAt: '2026-11-27T16:00:00.000Z',
      },
      [station(1), station(2), station(3)],
      null,
    );
    await store.recordImport({
      source: 's3://feed/incoming/good.csv',
      outcome: 'published',
      version: 'import-test-1',
      at: '2026-11-28T06:00:00.000Z',
      acceptedRows: 3,
      rejectedRows: 0,
      reasons: [],
    });

    const published = readinessResource(await readReadiness(readinessDeps(infra)));
    expect(published).toMatchObject({
      ready: true,
      problems: [],
      station_catalog: {
        source: 'imported',
        version: 'import-test-1',
        station_count: 3,
        newest_price_age_hours: 20,
        stale: false,
      },
      last_price_import: { outcome: 'published', accepted_rows: 3 },
    });
    expect(await reportPriceFreshness({ ...priceFreshnessDeps(infra), report: () => {} })).toEqual({
      source: 'imported',
      version: 'import-test-1',
      newestPriceAgeHours: 20,
    });

    await store.recordImport({
      source: 's3://feed/incoming/two-rows.csv',
      outcome: 'refused',
      version: 'import-test-2',
      at: '2026-11-28T11:00:00.000Z',
      acceptedRows: 2,
      rejectedRows: 0,
      reasons: ['The file would remove 1 of 3 stations (33.3%), more than the 10% allowed.'],
    });
    const refused = readinessResource(await readReadiness(readinessDeps(infra)));
    expect(refused.ready).toBe(false);
    expect(refused.station_catalog.version).toBe('import-test-1');
    expect(refused.last_price_import).toMatchObject({
      outcome: 'refused',
      source: 's3://feed/incoming/two-rows.csv',
    });
    expect(refused.problems).toEqual([expect.stringContaining('two-rows.csv was refused')]);
  });
});
