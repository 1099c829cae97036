import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stableId } from '#shared/kernel/ids.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import { CatalogMovedError, createStationCatalogStore } from '#shared/stations/store/station-catalog.ts';
import {
  createTestTable,
  deleteTestTable,
  dynamoDbEndpoint,
  testDocumentClient,
} from '#test/support/dynamodb.ts';

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
        newestPriceUpdatedAt: '2026-11-20T00:00:00.000000Z',
      },
      stations,
      null,
      (written) => progress.push(written),
    );
    expect(progress.at(-1)).toBe(120);
    expect(await store.current()).toEqual({
      version: 'v-test-1',
      count: 120,
      importedAt: '2026-11-21T00:00:00.000000Z',
      source: 'test',
      newestPriceUpdatedAt: '2026-11-20T00:00:00.000000Z',
    });
    const loaded = await store.load('v-test-1');
    expect(loaded).toHaveLength(120);
    expect(new Set(loaded.map((s) => s.id))).toEqual(new Set(stations.map((s) => s.id)));
  });
});

describe('the catalog pointer', () => {
  const pointer = (version: string) => ({
    version,
    count: 1,
    importedAt: '2026-11-21T00:00:00.000000Z',
    source: `${version}.csv`,
    newestPriceUpdatedAt: '2026-11-20T00:00:00.000000Z',
  });

  it('moves only from the version the import read: a publish that read an older pointer is refused', async () => {
    const raceTable = await createTestTable(client, 'catalog-race');
    try {
      const store = createStationCatalogStore(client, raceTable);
      await store.publish(pointer('first'), [station(1)], null);
      // A second import that also read "nothing imported yet" lost the race.
      await expect(store.publish(pointer('late'), [station(2)], null)).rejects.toBeInstanceOf(
        CatalogMovedError,
      );
      expect((await store.current())?.version).toBe('first');
      await store.publish(pointer('second'), [station(3)], 'first');
      // One that read `first` while `second` was being published.
      await expect(store.publish(pointer('stale'), [station(4)], 'first')).rejects.toThrow(
        'The catalog pointer no longer names first',
      );
      expect((await store.current())?.version).toBe('second');
    } finally {
      await deleteTestTable(client, raceTable);
    }
  });
});

describe('npm run stations:import', () => {
  const feed = [
    'name,chain,latitude,longitude,state,diesel_price_usd_per_gallon,price_updated_at',
    'A,TA,35,-101,TX,3.5,2026-11-20T12:00:00Z',
    'B,TA,nope,-101,TX,3.5,2026-11-20T12:00:00Z',
    'C,Petro,36,-100,OK,3.4,2026-11-20T12:00:00Z',
  ].join('\n');
  const writeFeed = (name: string, text = feed) => {
    const file = join(mkdtempSync(join(tmpdir(), 'catalog-')), name);
    writeFileSync(file, text);
    return file;
  };
  const run = (args: string[], tableName = table) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/import-stations.ts', ...args], {
      env: { ...process.env, TABLE_NAME: tableName, DYNAMODB_ENDPOINT: dynamoDbEndpoint() },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  it('refuses a file with too many rejected rows or lost stations (exit 2) with the diff; with lower thresholds it dry-runs, then publishes', async () => {
    const store = createStationCatalogStore(client, table);
    const before = await store.current();
    const file = writeFeed('feed.csv');

    const refused = await run([file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 3: rejected: latitude: must be a number');
    expect(refused.stderr).toContain('Only 2 of 3 rows (66.7 %) were accepted; at least 95 % must be');
    expect(await store.current()).toEqual(before);

    // Two rows would also replace the 120 stations imported above: refused, with the diff to see why.
    const lossy = await run(['--dry-run', '--min-accepted-share', '0.5', file]);
    expect(lossy.code).toBe(2);
    expect(lossy.stderr).toContain('Diff against v-test-1 (120 stations): 2 added, 120 removed');
    expect(lossy.stderr).toContain(
      "Publishing would remove 120 of the current catalog's 120 stations (100 %)",
    );

    const flags = ['--min-accepted-share', '0.5', '--max-station-loss-share', '1'];
    const dryRun = await run(['--dry-run', ...flags, file]);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toContain('would publish 2 stations; nothing was written');
    expect(await store.current()).toEqual(before);
    expect((await store.lastDryRun())?.outcome).toBe('dry_run');

    const published = await run([...flags, file]);
    expect(published.code).toBe(0);
    expect(published.stdout).toContain('2 stations are the current catalog');
    const pointer = await store.current();
    expect(pointer?.source).toBe('feed.csv');
    expect(pointer?.newestPriceUpdatedAt).toBe('2026-11-20T12:00:00.000000Z');
    expect((await store.load(pointer?.version ?? '')).map((s) => s.name).sort()).toEqual(['A', 'C']);
  });

  it('says what is wrong with its arguments, a missing file or a missing table (exit 1)', async () => {
    expect(await run(['--min-accepted-share', '95', writeFeed('feed.csv')])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        "--min-accepted-share must be a share between 0 and 1 (e.g. 0.95), not '95'",
      ),
    });
    expect(await run(['/nonexistent/feed.csv'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('/nonexistent/feed.csv: no such file'),
    });
    expect(await run([writeFeed('feed.csv')], 'no-such-table')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("Table 'no-such-table' does not exist in region"),
    });
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

  it('keeps the latest dry run apart from the latest import', async () => {
    const store = createStationCatalogStore(client, table);
    const before = await store.lastImport();
    const dryRun = {
      source: 's3://feed/dry-run/prices.csv',
      outcome: 'refused' as const,
      version: 'import-20261122T000000000-a1b2c3',
      at: '2026-11-22T00:00:00.000000Z',
      acceptedRows: 0,
      rejectedRows: 0,
      reasons: ['A JSON price file must be an array of station objects'],
    };
    await store.recordDryRun(dryRun);
    expect(await store.lastDryRun()).toEqual(dryRun);
    expect(await store.lastImport()).toEqual(before);
  });
});
