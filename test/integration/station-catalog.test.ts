import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Station } from '../../shared/domain/stations/station.ts';
import { stableId } from '../../shared/platform/ids.ts';
import { createStationCatalogStore } from '../../shared/store/station-catalog.ts';
import {
  createTestTable,
  deleteTestTable,
  dynamoDbEndpoint,
  testDocumentClient,
} from '../support/dynamodb.ts';

const client = testDocumentClient();
let table: string;
beforeAll(async () => {
  table = await createTestTable(client, 'catalog');
});
afterAll(() => deleteTestTable(client, table));

const station = (i: number): Station => ({
  id: stableId('station', `s${i}`),
  name: `Stop ${i}`,
  chain: 'TA',
  latitude: 30 + i / 1000,
  longitude: -97,
  address: '',
  state: 'TX',
  amenities: [],
  fuels: ['diesel'],
  dieselPriceUsdPerGallon: 3.5,
  priceUpdatedAtMs: Date.parse('2026-11-20T00:00:00Z'),
});

describe('the station catalog store', () => {
  it('publishes every station, then moves the pointer; loading returns them all', async () => {
    const store = createStationCatalogStore(client, table);
    expect(await store.current()).toBeNull();
    const stations = Array.from({ length: 120 }, (_, i) => station(i));
    const progress: number[] = [];
    await store.publish(
      {
        version: 'v-test-1',
        count: stations.length,
        importedAt: '2026-11-21T00:00:00.000000Z',
        source: 'test',
        newestPriceUpdatedAt: '2026-11-20T23:00:00.000000Z',
      },
      stations,
      (written) => progress.push(written),
    );
    expect(progress.at(-1)).toBe(120);
    expect(await store.current()).toEqual({
      version: 'v-test-1',
      count: 120,
      importedAt: '2026-11-21T00:00:00.000000Z',
      source: 'test',
      newestPriceUpdatedAt: '2026-11-20T23:00:00.000000Z',
    });
    const loaded = await store.load('v-test-1');
    expect(loaded).toHaveLength(120);
    expect(new Set(loaded.map((s) => s.id))).toEqual(new Set(stations.map((s) => s.id)));
  });
});

describe('npm run stations:import', () => {
  it('imports a CSV, reports rejected rows by line, and makes the new version current', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
    const file = join(dir, 'feed.csv');
    writeFileSync(
      file,
      [
        'name,chain,latitude,longitude,state,diesel_price_usd_per_gallon,price_updated_at',
        'A,TA,35,-101,TX,3.5,2026-11-20T12:00:00Z',
        'B,TA,nope,-101,TX,3.5,2026-11-20T12:00:00Z',
        'C,Petro,36,-100,OK,3.4,2026-11-20T12:00:00Z',
      ].join('\n'),
    );
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/import-stations.ts', file],
      { env: { ...process.env, TABLE_NAME: table, DYNAMODB_ENDPOINT: dynamoDbEndpoint() } },
    );
    expect(stderr).toContain('line 3: rejected');
    expect(stdout).toContain('2 stations, 1 rejected rows');
    const store = createStationCatalogStore(client, table);
    const pointer = await store.current();
    expect(pointer?.source).toBe('feed.csv');
    expect((await store.load(pointer?.version ?? '')).map((s) => s.name).sort()).toEqual(['A', 'C']);
  });

  it('keeps the outcome of the latest price file import, refused or published', async () => {
    const store = createStationCatalogStore(client, table);
    const refused = {
      source: 's3://feed/incoming/prices.csv',
      outcome: 'refused' as const,
      version: 'import-20261121T000000',
      at: '2026-11-21T00:00:00.000000Z',
      acceptedRows: 2,
      rejectedRows: 998,
      reasons: ['Only 0.2 % of the rows were accepted; at least 95 % must be.'],
    };
    await store.recordImport(refused);
    expect(await store.lastImport()).toEqual(refused);
    const published = {
      ...refused,
      outcome: 'published' as const,
      acceptedRows: 1000,
      rejectedRows: 0,
      reasons: [],
    };
    await store.recordImport(published);
    expect(await store.lastImport()).toEqual(published);
  });
});
