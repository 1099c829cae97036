import { describe, expect, it } from 'vitest';
import { readinessResource } from '#shared/admin/api/serializers.ts';
import { type ReadinessDeps, readReadiness } from '#shared/admin/usecases/readiness.ts';
import type { CatalogPointer, PriceImportRecord } from '#shared/stations/store/station-catalog.ts';
import { reportPriceFreshness } from '#shared/stations/usecases/price-freshness.ts';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const HOUR = 3_600_000;

const pointer: CatalogPointer = {
  version: 'import-20261128T0600Z',
  count: 6214,
  importedAt: '2026-11-28T06:05:00.000Z',
  source: 's3://feed/incoming/2026-11-28.csv',
  newestPriceUpdatedAt: '2026-11-28T05:45:00.000Z',
};
const published: PriceImportRecord = {
  source: 's3://feed/incoming/2026-11-28.csv',
  outcome: 'published',
  version: 'import-20261128T0600Z',
  at: '2026-11-28T06:05:00.000Z',
  acceptedRows: 6214,
  rejectedRows: 3,
  reasons: [],
};

/** A store holding the given pointer, last import and last dry run; the synthetic catalog counts its builds. */
function depsWith(
  current: CatalogPointer | null,
  lastImport: PriceImportRecord | null,
  lastDryRun: PriceImportRecord | null = null,
) {
  let syntheticBuilds = 0;
  const deps: ReadinessDeps = {
    store: {
      current: async () => current,
      lastImport: async () => lastImport,
      lastDryRun: async () => lastDryRun,
    },
    synthetic: () => {
      syntheticBuilds += 1;
      return {
        version: 'synthetic-test',
        stations: [{ priceUpdatedAtMs: NOW - 30 * HOUR }, { priceUpdatedAtMs: NOW - 2 * HOUR }],
      };
    },
    stage: 'prod',
    routingEngine: 'amazon-location',
    priceFeedBucket: 'fleetfuel-prod-pricefeed',
    staleAfterHours: 36,
    now: () => NOW,
  };
  return { deps, syntheticBuilds: () => syntheticBuilds };
}

describe('readReadiness', () => {
  it('reports an imported catalog from its pointer without building the synthetic one', async () => {
    // A dry run refused after the catalog was published: shown apart, not a problem.
    const refusedDryRun: PriceImportRecord = {
      source: 's3://feed/dry-run/2026-11-28-v2.csv',
      outcome: 'refused',
      version: 'import-20261128T100000000-0a0b0c',
      at: '2026-11-28T10:00:00.000Z',
      acceptedRows: 0,
      rejectedRows: 0,
      reasons: ['A JSON price file must be an array of station objects'],
    };
    const { deps, syntheticBuilds } = depsWith(pointer, published, refusedDryRun);

    const body = readinessResource(await readReadiness(deps));

    expect(syntheticBuilds()).toBe(0);
    expect(body).toEqual({
      object: 'readiness',
      stage: 'prod',
      ready: true,
      problems: [],
      routing: { engine: 'amazon-location', fallback: 'embedded' },
      station_catalog: {
        source: 'imported',
        version: 'import-20261128T0600Z',
        station_count: 6214,
        imported_at: '2026-11-28T06:05:00.000000Z',
        newest_price_updated_at: '2026-11-28T05:45:00.000000Z',
        // 12:00 − 05:45 = 6 h 15 min.
        newest_price_age_hours: 6.3,
        stale: false,
        stale_after_hours: 36,
      },
      last_price_import: {
        source: 's3://feed/incoming/2026-11-28.csv',
        outcome: 'published',
        version: 'import-20261128T0600Z',
        at: '2026-11-28T06:05:00.000000Z',
        accepted_rows: 6214,
        rejected_rows: 3,
        reasons: [],
      },
      last_dry_run: {
        source: 's3://feed/dry-run/2026-11-28-v2.csv',
        outcome: 'refused',
        version: 'import-20261128T100000000-0a0b0c',
        at: '2026-11-28T10:00:00.000000Z',
        accepted_rows: 0,
        rejected_rows: 0,
        reasons: ['A JSON price file must be an array of station objects'],
      },
      price_feed_bucket: 'fleetfuel-prod-pricefeed',
    });
  });

  it('reports the synthetic catalog with its station count and newest price when nothing was imported', async () => {
    const { deps } = depsWith(null, null);

    const body = readinessResource(await readReadiness(deps));

    expect(body.ready).toBe(false);
    expect(body.station_catalog).toEqual({
      source: 'synthetic',
      version: 'synthetic-test',
      station_count: 2,
      imported_at: null,
      newest_price_updated_at: '2026-11-28T10:00:00.000000Z',
      newest_price_age_hours: 2,
      stale: false,
      stale_after_hours: 36,
    });
    expect(body.last_price_import).toBeNull();
    expect(body.last_dry_run).toBeNull();
    expect(body.problems).toEqual([expect.stringContaining('synthetic station catalog')]);
  });
});

describe('reportPriceFreshness', () => {
  it('reports the imported catalog’s newest price age to the metric port', async () => {
    const reported: unknown[] = [];
    const { deps } = depsWith({ ...pointer, newestPriceUpdatedAt: '2026-11-26T12:00:00.000Z' }, null);

    const freshness = await reportPriceFreshness({ ...deps, report: (f) => reported.push(f) });

    const expected = { source: 'imported', version: 'import-20261128T0600Z', newestPriceAgeHours: 48 };
    expect(freshness).toEqual(expected);
    expect(reported).toEqual([expected]);
  });

  it('reports no age for an imported catalog without its newest price time, so the alarm sees missing data', async () => {
    const reported: unknown[] = [];
    const { deps } = depsWith({ ...pointer, newestPriceUpdatedAt: null }, null);

    await reportPriceFreshness({ ...deps, report: (f) => reported.push(f) });

    expect(reported).toEqual([{ source: 'imported', version: pointer.version, newestPriceAgeHours: null }]);
  });

  it('reports the synthetic catalog’s newest price when nothing was imported', async () => {
    const { deps } = depsWith(null, null);

    const freshness = await reportPriceFreshness({ ...deps, report: () => {} });

    expect(freshness).toEqual({ source: 'synthetic', version: 'synthetic-test', newestPriceAgeHours: 2 });
  });
});
