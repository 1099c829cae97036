import { readFileSync } from 'node:fs';
import { GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { EventBridgeEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPriceFeedImportHandler, type ObjectCreatedDetail } from '#functions/jobs/price-feed-import.ts';
import { readReadiness } from '#shared/admin/usecases/readiness.ts';
import { stableId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { resetUsageMetrics } from '#shared/platform/usage-metrics.ts';
import { DEFAULT_PRICE_FEED_POLICY } from '#shared/stations/domain/price-feed-guards.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import {
  createStationCatalogStore,
  type StationCatalogStore,
} from '#shared/stations/store/station-catalog.ts';
import { importPriceFile, type PriceFileInput } from '#shared/stations/usecases/price-feed-import.ts';
import { readinessDeps } from '#shared/stations/wiring/catalog-readiness.ts';
import { priceFeedImportJob } from '#shared/stations/wiring/price-feed.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { testInfrastructure } from '#test/support/infrastructure.ts';

/** The import's time: a week after the fixtures' prices, well before hostile-rows.json's future one. */
const NOW = Date.parse('2026-11-21T00:00:00Z');
const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/price-feed/${name}`, import.meta.url), 'utf8');

const client = testDocumentClient();
const tables: string[] = [];
afterAll(() => Promise.all(tables.map((table) => deleteTestTable(client, table))));

/** Each scenario on its own table, so each starts from the synthetic catalog (no pointer). */
async function freshCatalog(): Promise<{ table: string; store: StationCatalogStore }> {
  const table = await createTestTable(client, 'price-feed');
  tables.push(table);
  return { table, store: createStationCatalogStore(client, table) };
}

const deps = (store: StationCatalogStore, nowMs = NOW, suffix = 'a1b2c3') => ({
  catalog: store,
  now: () => nowMs,
  versionSuffix: () => suffix,
});
const input = (name: string, overrides: Partial<PriceFileInput> = {}): PriceFileInput => ({
  text: fixture(name),
  format: name.endsWith('.json') ? 'json' : 'csv',
  source: name,
  dryRun: false,
  policy: DEFAULT_PRICE_FEED_POLICY,
  ...overrides,
});

/** A thousand Texas stations, as an earlier import would have left them. */
async function seedImportedCatalog(store: StationCatalogStore, size = 1000): Promise<void> {
  const stations: Station[] = Array.from({ length: size }, (_, i) => ({
    id: stableId('station', `seed-${i}`),
    name: `Seed ${i}`,
    chain: 'Independent',
    latitude: 31 + (i % 40) * 0.025,
    longitude: -99.5 + Math.floor(i / 40) * 0.08,
    address: '',
    state: 'TX',
    amenities: [],
    fuels: ['diesel'],
    dieselPriceUsdPerGallon: 3.3,
    priceUpdatedAtMs: Date.parse('2026-11-19T00:00:00Z'),
  }));
  await store.publish(
    {
      version: 'import-seed',
      count: size,
      importedAt: '2026-11-19T00:00:00.000000Z',
      source: 'seed.csv',
      newestPriceUpdatedAt: '2026-11-19T00:00:00.000000Z',
    },
    stations,
    null,
  );
}

describe('importing a price file', () => {
  it('publishes a good file: every row, the pointer moved, its newest price recorded', async () => {
    const { store } = await freshCatalog();
    const outcome = await importPriceFile(input('good.csv'), deps(store));
    expect(outcome).toMatchObject({
      outcome: 'published',
      version: 'import-20261121T000000000-a1b2c3',
      totalRows: 20,
      accepted: 20,
      rejectedCount: 0,
      reasons: [],
      replaces: { source: 'synthetic' },
      newestPriceUpdatedAt: '2026-11-20T17:10:00.000000Z',
    });
    expect(outcome.diff).toMatchObject({ added: 20, removed: 0, repriced: 0, moved: 0, unchanged: 0 });
    expect(await store.current()).toEqual({
      version: 'import-20261121T000000000-a1b2c3',
      count: 20,
      importedAt: '2026-11-21T00:00:00.000000Z',
      source: 'good.csv',
      newestPriceUpdatedAt: '2026-11-20T17:10:00.000000Z',
    });
    const loaded = await store.load('import-20261121T000000000-a1b2c3');
    expect(loaded.find((s) => s.name === 'Petro Dallas')).toMatchObject({
      address: 'I-20 Exit 472, "South"',
      state: 'TX',
      dieselPriceUsdPerGallon: 3.389,
    });
    expect(await store.lastImport()).toEqual({
      source: 'good.csv',
      outcome: 'published',
      version: 'import-20261121T000000000-a1b2c3',
      at: '2026-11-21T00:00:00.000000Z',
      acceptedRows: 20,
      rejectedRows: 0,
      reasons: [],
    });
  });

  it('publishes the good rows of a partial file whose accepted share meets the minimum', async () => {
    const { store } = await freshCatalog();
    const outcome = await importPriceFile(input('partial.csv'), deps(store));
    expect(outcome.outcome).toBe('published');
    expect(outcome.accepted).toBe(38);
    expect(outcome.rejected).toEqual([
      { line: 9, reason: expect.stringContaining('diesel_price_usd_per_gallon') },
      { line: 23, reason: expect.stringContaining("unknown fuel 'kerosene'") },
    ]);
    expect((await store.current())?.count).toBe(38);
  });

  it('refuses the same partial file when the minimum share is raised above what it reaches', async () => {
    const { store } = await freshCatalog();
    const outcome = await importPriceFile(
      input('partial.csv', { policy: { ...DEFAULT_PRICE_FEED_POLICY, minAcceptedShare: 0.96 } }),
      deps(store),
    );
    expect(outcome.outcome).toBe('refused');
    expect(outcome.reasons).toEqual([
      'Only 38 of 40 rows (95 %) were accepted; at least 96 % must be (PRICE_FEED_MIN_ACCEPTED_SHARE). Fix the rejected rows and drop the file again.',
    ]);
    expect(await store.current()).toBeNull();
  });

  it('refuses a two-row file that would replace a 1,000-station imported catalog, which stays current', async () => {
    const { store } = await freshCatalog();
    await seedImportedCatalog(store);
    const outcome = await importPriceFile(input('two-rows.csv'), deps(store));
    expect(outcome.outcome).toBe('refused');
    expect(outcome.accepted).toBe(2);
    expect(outcome.diff).toMatchObject({ added: 2, removed: 1000 });
    expect(outcome.replaces).toEqual({ source: 'imported', version: 'import-seed', stationCount: 1000 });
    expect(outcome.reasons).toEqual([
      "Publishing would remove 1,000 of the current catalog's 1,000 stations (100 %); at most 10 % may go at once (PRICE_FEED_MAX_STATION_LOSS_SHARE). Send the whole catalog, not part of it.",
    ]);
    expect((await store.current())?.version).toBe('import-seed');
    expect(await store.load('import-20261121T000000000-a1b2c3')).toEqual([]);
    expect(await store.lastImport()).toMatchObject({
      outcome: 'refused',
      acceptedRows: 2,
      reasons: outcome.reasons,
    });
  });

  it('publishes the same two rows over the synthetic catalog: a first import replaces it whatever its size', async () => {
    const { store } = await freshCatalog();
    const outcome = await importPriceFile(input('two-rows.csv'), deps(store));
    expect(outcome.outcome).toBe('published');
    expect((await store.current())?.count).toBe(2);
  });

  it('refuses a hostile file of future prices, wrong states and unknown fuels, naming each row', async () => {
    const { store } = await freshCatalog();
    const outcome = await importPriceFile(input('hostile-rows.json'), deps(store));
    expect(outcome.outcome).toBe('refused');
    expect(outcome.accepted).toBe(1);
    expect(outcome.rejected.map((row) => row.line)).toEqual([1, 2, 3, 4, 5]);
    const [future, wrongState, jet, noDiesel, injected] = outcome.rejected.map((row) => row.reason);
    expect(future).toBe(
      "price_updated_at: 2027-01-01T00:00:00Z is after the import's time: a price cannot be observed in the future",
    );
    expect(wrongState).toBe('state: 35.47, -97.52 is not in Texas (TX) nor within 1 mile of it');
    expect(jet).toContain("fuels: unknown fuel 'jet_a' (expected one of diesel, def,");
    expect(noDiesel).toBe('fuels: must include diesel');
    expect(injected).toBe('latitude: must be a number');
    expect(outcome.reasons[0]).toMatch(/^Only 1 of 6 rows \(16\.7 %\) were accepted/);
    expect(await store.current()).toBeNull();
  });

  it.each(['header-only.csv', 'empty.json'])('refuses %s: no rows, nothing to publish', async (name) => {
    const { store } = await freshCatalog();
    const outcome = await importPriceFile(input(name), deps(store));
    expect(outcome).toMatchObject({
      outcome: 'refused',
      totalRows: 0,
      reasons: ['The file has no station rows (empty, a header alone, or []): there is nothing to publish.'],
    });
    expect(await store.current()).toBeNull();
  });

  it('refuses an empty file, an oversize one, one that is not CSV or JSON, broken JSON and a header without the columns', async () => {
    const { store } = await freshCatalog();
    const refusal = async (overrides: Partial<PriceFileInput>) =>
      (await importPriceFile(input('good.csv', overrides), deps(store))).reasons;
    expect(await refusal({ text: '' })).toEqual([
      'The file has no station rows (empty, a header alone, or []): there is nothing to publish.',
    ]);
    expect(await refusal({ text: 'x'.repeat(51 * 1024 * 1024) })).toEqual([
      'The file is 51 MB; a price file may be at most 50 MB. Leave out columns the feed does not read (docs/price-feed.md).',
    ]);
    expect(await refusal({ format: null, source: 'prices.xlsx' })).toEqual([
      'prices.xlsx is not a .csv or .json file; the price feed takes CSV with a header row or a JSON array (docs/price-feed.md).',
    ]);
    expect((await refusal({ format: 'json', text: '[{"name": ' }))[0]).toMatch(
      /^The file is not valid JSON \(.+\); a JSON price file is an array of station objects\.$/,
    );
    expect(await refusal({ format: 'json', text: '{"stations": []}' })).toEqual([
      'A JSON price file must be an array of station objects',
    ]);
    expect(await refusal({ text: 'station,price\nA,3.5\n' })).toEqual([
      'The CSV header lacks the columns name, chain, latitude, longitude, state, diesel_price_usd_per_gallon, price_updated_at; the first line must name the columns (docs/price-feed.md).',
    ]);
    expect(await store.current()).toBeNull();
    expect((await store.lastImport())?.outcome).toBe('refused');
  });

  it('dry-runs: reports the diff against the current catalog and changes nothing but the latest dry run', async () => {
    const { store } = await freshCatalog();
    await importPriceFile(input('good.csv'), deps(store));
    const before = await store.current();
    // Tomorrow's file: Amarillo's price moves and Cheyenne's station is gone.
    const next = fixture('good.csv')
      .replace('3.459,2026-11-20T14:05:00Z', '3.199,2026-11-21T14:05:00Z')
      .split('\n')
      .filter((line) => !line.includes('Cheyenne'))
      .join('\n');
    const later = Date.parse('2026-11-22T00:00:00Z');
    const outcome = await importPriceFile(
      input('good.csv', { text: next, dryRun: true }),
      deps(store, later),
    );
    expect(outcome.outcome).toBe('dry_run');
    expect(outcome.diff).toMatchObject({ added: 0, removed: 1, repriced: 1, moved: 0, unchanged: 18 });
    expect(outcome.diff?.largestPriceMoves).toEqual([
      {
        stationId: expect.stringMatching(/^stn_/),
        name: 'Pilot Amarillo East',
        fromUsdPerGallon: 3.459,
        toUsdPerGallon: 3.199,
        changeUsdPerGallon: -0.26,
      },
    ]);
    expect(await store.current()).toEqual(before);
    expect(await store.load(outcome.version)).toEqual([]);
    expect(await store.lastDryRun()).toMatchObject({
      outcome: 'dry_run',
      version: 'import-20261122T000000000-a1b2c3',
    });
    // The dry run is not the latest import: that is still the file that was published.
    expect(await store.lastImport()).toMatchObject({ outcome: 'published', version: before?.version });
  });
});

/** good.csv a day later: every price observed 24 hours after the fixture's. */
const nextDays = (days: number) => fixture('good.csv').replaceAll('2026-11-20T', `2026-11-${20 + days}T`);

/** What production's readiness report says about the table now. */
const readinessOn = (table: string) =>
  readReadiness(
    readinessDeps(testInfrastructure({ tableName: table, clock: fixedClock(NOW), stage: 'prod' })),
  );

describe('dry runs and readiness', () => {
  it('a refused dry run, guarded or unreadable, leaves production ready and the latest import as it was', async () => {
    const { table, store } = await freshCatalog();
    await importPriceFile(input('good.csv'), deps(store));
    const published = await store.lastImport();

    const guarded = await importPriceFile(input('two-rows.csv', { dryRun: true }), deps(store));
    expect(guarded).toMatchObject({ outcome: 'refused', dryRun: true });
    expect(guarded.reasons[0]).toContain("would remove 18 of the current catalog's 20 stations");
    const unreadable = await importPriceFile(
      input('good.csv', { source: 'broken.json', text: '[{"name": ', format: 'json', dryRun: true }),
      deps(store),
    );
    expect(unreadable).toMatchObject({ outcome: 'refused', dryRun: true });

    expect(await store.lastImport()).toEqual(published);
    expect(await store.lastDryRun()).toMatchObject({ source: 'broken.json', outcome: 'refused' });
    const readiness = await readinessOn(table);
    expect(readiness).toMatchObject({ ready: true, problems: [], lastImport: { outcome: 'published' } });
    expect(readiness.lastDryRun).toMatchObject({ outcome: 'refused', source: 'broken.json' });
  });

  it('a passing dry run does not hide a real refusal of a file under incoming/', async () => {
    const { table, store } = await freshCatalog();
    await importPriceFile(input('good.csv'), deps(store));
    const refused = await importPriceFile(input('two-rows.csv'), deps(store));
    expect(refused.outcome).toBe('refused');

    const tried = await importPriceFile(input('good.csv', { dryRun: true }), deps(store));
    expect(tried.outcome).toBe('dry_run');

    const readiness = await readinessOn(table);
    expect(readiness.ready).toBe(false);
    expect(readiness.problems).toEqual([expect.stringContaining('two-rows.csv was refused')]);
    expect(readiness.lastImport).toMatchObject({ source: 'two-rows.csv', outcome: 'refused' });
    expect(readiness.lastDryRun).toMatchObject({ source: 'good.csv', outcome: 'dry_run' });
  });
});

describe('publishing in order, once', () => {
  const MONDAY_FILE = fixture('good.csv');
  const TUESDAY_FILE = nextDays(1);
  const WEDNESDAY = Date.parse('2026-11-22T00:00:00Z');

  it('refuses an older file delivered after a newer one: the catalog stays, and a dry run says so too', async () => {
    const { store } = await freshCatalog();
    const tuesday = await importPriceFile(input('good.csv', { text: TUESDAY_FILE }), deps(store, WEDNESDAY));
    expect(tuesday.outcome).toBe('published');
    const before = await store.current();

    // The late delivery, in the same second: its own version, so nothing of it may be written.
    const monday = await importPriceFile(
      input('good.csv', { text: MONDAY_FILE }),
      deps(store, WEDNESDAY, 'bbbbbb'),
    );
    const olderReason =
      "The file's newest price (2026-11-20T17:10:00.000000Z) is older than the current catalog's (2026-11-21T17:10:00.000000Z): it is an earlier file delivered late or dropped again. Drop a current file.";
    expect(monday).toMatchObject({ outcome: 'refused', reasons: [olderReason] });
    expect(await store.current()).toEqual(before);
    expect(await store.load(monday.version)).toEqual([]);

    const dryRun = await importPriceFile(
      input('good.csv', { text: MONDAY_FILE, dryRun: true }),
      deps(store, WEDNESDAY),
    );
    expect(dryRun).toMatchObject({ outcome: 'refused', reasons: [olderReason] });
  });

  it('publishes the same file delivered twice again, with identical content under a new version', async () => {
    const { store } = await freshCatalog();
    const first = await importPriceFile(input('good.csv'), deps(store, NOW, 'aaaaaa'));
    const again = await importPriceFile(input('good.csv'), deps(store, NOW, 'bbbbbb'));
    expect(again).toMatchObject({ outcome: 'published', reasons: [] });
    expect(again.diff).toMatchObject({ added: 0, removed: 0, repriced: 0, moved: 0, unchanged: 20 });
    expect(again.version).not.toBe(first.version);
    expect((await store.current())?.version).toBe(again.version);
    expect(await store.load(again.version)).toEqual(await store.load(first.version));
  });

  it('refuses the import that loses a race to publish, naming the winner; the winner stays current', async () => {
    const { store } = await freshCatalog();
    let winner: Awaited<ReturnType<typeof importPriceFile>> | undefined;
    // Both read "nothing imported yet"; the other one moves the pointer while this one writes.
    const racing: StationCatalogStore = {
      ...store,
      publish: async (...args) => {
        winner = await importPriceFile(
          input('good.csv', { text: TUESDAY_FILE }),
          deps(store, WEDNESDAY, 'ffffff'),
        );
        return store.publish(...args);
      },
    };
    const loser = await importPriceFile(input('good.csv'), deps(racing, NOW, 'aaaaaa'));
    expect(winner?.outcome).toBe('published');
    expect(loser).toMatchObject({
      outcome: 'refused',
      reasons: [
        'Another import published catalog import-20261122T000000000-ffffff while this file was being written, so it was not compared with that catalog: drop the file again.',
      ],
    });
    expect((await store.current())?.version).toBe('import-20261122T000000000-ffffff');
    expect(await store.lastImport()).toMatchObject({ outcome: 'refused', version: loser.version });
  });

  it('gives two imports in the same second their own versions', async () => {
    const { store } = await freshCatalog();
    const a = await importPriceFile(input('good.csv', { dryRun: true }), { catalog: store, now: () => NOW });
    const b = await importPriceFile(input('good.csv', { dryRun: true }), { catalog: store, now: () => NOW });
    expect(a.version).toMatch(/^import-20261121T000000000-[0-9a-f]{6}$/);
    expect(b.version).toMatch(/^import-20261121T000000000-[0-9a-f]{6}$/);
    expect(a.version).not.toBe(b.version);
  });
});

/** What `run` returned and the EMF metric documents it wrote to stdout (metrics on for the call). */
async function withMetrics<T>(
  run: () => Promise<T>,
): Promise<{ result: T; metrics: Record<string, unknown>[] }> {
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  resetUsageMetrics();
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    const result = await run();
    const metrics = lines
      .flatMap((line) => line.split('\n'))
      .filter((line) => line.includes('"_aws"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    return { result, metrics };
  } finally {
    spy.mockRestore();
    vi.unstubAllEnvs();
    resetUsageMetrics();
  }
}

/** A GetObject answer as the SDK gives it: the body is a stream with transformToString. */
function objectOf(text: string) {
  return {
    ContentLength: Buffer.byteLength(text),
    Body: { transformToString: async () => text, destroy: () => undefined } as never,
  };
}

function objectCreated(
  bucket: string,
  key: string,
  versionId?: string,
  size = 100,
): EventBridgeEvent<'Object Created', ObjectCreatedDetail> {
  return {
    version: '0',
    id: '17793124-05d4-b198-2fde-7ededc63b103',
    'detail-type': 'Object Created',
    source: 'aws.s3',
    account: '111122223333',
    time: '2026-11-21T00:00:00Z',
    region: 'us-east-1',
    resources: [`arn:aws:s3:::${bucket}`],
    detail: {
      bucket: { name: bucket },
      object: { key, size, ...(versionId ? { 'version-id': versionId } : {}) },
    },
  };
}

describe('the price feed import function', () => {
  const s3 = mockClient(S3Client);
  let table: string;
  let handler: ReturnType<typeof createPriceFeedImportHandler>;
  beforeAll(async () => {
    ({ table } = await freshCatalog());
    const infra = testInfrastructure({ tableName: table, clock: fixedClock(NOW) });
    const job = priceFeedImportJob(infra, { PRICE_FEED_BUCKET: 'feed-bucket' });
    handler = createPriceFeedImportHandler(() => job);
  });
  afterEach(() => s3.reset());
  afterAll(() => s3.restore());

  const reportOf = () => {
    const [put] = s3.commandCalls(PutObjectCommand);
    return { input: put?.args[0].input, report: JSON.parse(String(put?.args[0].input.Body)) };
  };

  it('dry-runs a file under dry-run/ (the version the event names) and writes the report beside it', async () => {
    s3.on(GetObjectCommand, {
      Bucket: 'feed-bucket',
      Key: 'dry-run/2026-11-21/prices.csv',
      VersionId: 'v1',
    }).resolves(objectOf(fixture('good.csv')));
    const result = await handler(objectCreated('feed-bucket', 'dry-run/2026-11-21/prices.csv', 'v1'));
    expect(result).toMatchObject({ status: 'done', reportKey: 'reports/dry-run/2026-11-21/prices.csv.json' });
    const { input, report } = reportOf();
    expect(input).toMatchObject({
      Bucket: 'feed-bucket',
      Key: 'reports/dry-run/2026-11-21/prices.csv.json',
      ContentType: 'application/json',
    });
    expect(report).toMatchObject({
      source: 's3://feed-bucket/dry-run/2026-11-21/prices.csv',
      outcome: 'dry_run',
      accepted_rows: 20,
      rejected_rows: 0,
      replaces: { source: 'synthetic' },
      diff: { added: 20, removed: 0 },
    });
    expect(await createStationCatalogStore(client, table).current()).toBeNull();
  });

  it('publishes a file under incoming/', async () => {
    s3.on(GetObjectCommand).resolves(objectOf(fixture('good.csv')));
    const { result, metrics } = await withMetrics(() =>
      handler(objectCreated('feed-bucket', 'incoming/prices.csv')),
    );
    expect(metrics).toEqual([]);
    expect(result).toMatchObject({ status: 'done', outcome: { outcome: 'published', accepted: 20 } });
    expect(reportOf().report).toMatchObject({
      outcome: 'published',
      version: expect.stringMatching(/^import-20261121T000000000-[0-9a-f]{6}$/),
    });
    expect(await createStationCatalogStore(client, table).current()).toMatchObject({
      source: 's3://feed-bucket/incoming/prices.csv',
      count: 20,
    });
  });

  it('refuses a hostile file without failing: the report says why, and the refusal is counted', async () => {
    s3.on(GetObjectCommand).resolves(objectOf(fixture('two-rows.csv')));
    const { result, metrics } = await withMetrics(() =>
      handler(objectCreated('feed-bucket', 'incoming/partial-upload.csv')),
    );
    expect(result).toMatchObject({ status: 'done', outcome: { outcome: 'refused' } });
    expect(metrics).toEqual([expect.objectContaining({ PriceFeedImportsRefused: 1 })]);
    expect(reportOf().report.reasons[0]).toContain(
      "would remove 18 of the current catalog's 20 stations (90 %)",
    );
    expect((await createStationCatalogStore(client, table).current())?.count).toBe(20);
  });

  it('refuses a file over the size cap without reading it', async () => {
    const destroyed: boolean[] = [];
    s3.on(GetObjectCommand).resolves({
      ContentLength: 80 * 1024 * 1024,
      Body: {
        transformToString: async () => {
          throw new Error('read a refused file');
        },
        destroy: () => destroyed.push(true),
      } as never,
    });
    const result = await handler(objectCreated('feed-bucket', 'incoming/huge.csv'));
    expect(result).toMatchObject({ status: 'done', outcome: { outcome: 'refused' } });
    expect(reportOf().report.reasons).toEqual([
      'The file is 80 MB; a price file may be at most 50 MB. Leave out columns the feed does not read (docs/price-feed.md).',
    ]);
    expect(destroyed).toEqual([true]);
  });

  it('does not count a refused dry run: no metric, and the latest import stays the real one', async () => {
    const store = createStationCatalogStore(client, table);
    const before = await store.lastImport();
    s3.on(GetObjectCommand).resolves(objectOf(fixture('two-rows.csv')));
    const { result, metrics } = await withMetrics(() =>
      handler(objectCreated('feed-bucket', 'dry-run/partial-upload.csv')),
    );
    expect(result).toMatchObject({ status: 'done', outcome: { outcome: 'refused', dryRun: true } });
    expect(metrics).toEqual([]);
    expect(await store.lastImport()).toEqual(before);
    expect(await store.lastDryRun()).toMatchObject({
      source: 's3://feed-bucket/dry-run/partial-upload.csv',
      outcome: 'refused',
    });
  });

  it('ignores folder placeholders and empty objects without reading them', async () => {
    for (const key of ['incoming/', 'incoming/2026-11/', 'dry-run/']) {
      expect(await handler(objectCreated('feed-bucket', key, undefined, 0))).toMatchObject({
        status: 'ignored',
        reason: `${key} is a folder placeholder, not a price file`,
      });
    }
    expect(await handler(objectCreated('feed-bucket', 'incoming/prices.csv', undefined, 0))).toEqual({
      status: 'ignored',
      reason: 'incoming/prices.csv is empty (0 bytes): nothing to import',
    });
    expect(s3.calls()).toEqual([]);
  });

  it('reports a stray file that is not CSV or JSON, without counting it or recording it as the latest import', async () => {
    const store = createStationCatalogStore(client, table);
    const before = await store.lastImport();
    s3.on(GetObjectCommand).resolves(objectOf('\u0000\u0001Bud1'));
    const { result, metrics } = await withMetrics(() =>
      handler(objectCreated('feed-bucket', 'incoming/.DS_Store')),
    );
    expect(result).toMatchObject({ status: 'done', outcome: { outcome: 'refused', recorded: false } });
    expect(metrics).toEqual([]);
    expect(reportOf()).toMatchObject({
      input: { Key: 'reports/incoming/.DS_Store.json' },
      report: {
        outcome: 'refused',
        reasons: [
          's3://feed-bucket/incoming/.DS_Store is not a .csv or .json file; the price feed takes CSV with a header row or a JSON array (docs/price-feed.md).',
        ],
      },
    });
    expect(await store.lastImport()).toEqual(before);
  });

  it('ignores its own reports and objects of another bucket', async () => {
    expect(await handler(objectCreated('feed-bucket', 'reports/incoming/prices.csv.json'))).toMatchObject({
      status: 'ignored',
    });
    expect(await handler(objectCreated('other-bucket', 'incoming/prices.csv'))).toMatchObject({
      status: 'ignored',
    });
    expect(s3.calls()).toEqual([]);
  });

  it('names the bucket and PRICE_FEED_BUCKET when the bucket does not exist, and the key when it is gone', async () => {
    const s3Error = (name: string) =>
      new S3ServiceException({ name, $fault: 'client', $metadata: { httpStatusCode: 404 }, message: name });
    s3.on(GetObjectCommand, { Key: 'incoming/a.csv' }).rejects(s3Error('NoSuchBucket'));
    s3.on(GetObjectCommand, { Key: 'incoming/b.csv' }).rejects(s3Error('NoSuchKey'));
    await expect(handler(objectCreated('feed-bucket', 'incoming/a.csv'))).rejects.toThrow(
      "Bucket 'feed-bucket' does not exist: set PRICE_FEED_BUCKET to the stage's price feed bucket (stack output PriceFeedBucketName)",
    );
    await expect(handler(objectCreated('feed-bucket', 'incoming/b.csv'))).rejects.toThrow(
      's3://feed-bucket/incoming/b.csv does not exist: it was deleted or renamed before the import read it',
    );
    expect(s3.commandCalls(PutObjectCommand)).toEqual([]);
  });

  it('names the table and the variable when the table does not exist', async () => {
    const job = priceFeedImportJob(testInfrastructure({ tableName: 'no-such-table-here' }), {
      PRICE_FEED_BUCKET: 'feed-bucket',
    });
    s3.on(GetObjectCommand).resolves(objectOf(fixture('good.csv')));
    await expect(
      createPriceFeedImportHandler(() => job)(objectCreated('feed-bucket', 'incoming/prices.csv')),
    ).rejects.toThrow(
      "Table 'no-such-table-here' does not exist in region us-east-1: set TABLE_NAME to the stage's table",
    );
    expect(s3.commandCalls(PutObjectCommand)).toEqual([]);
  });
});
