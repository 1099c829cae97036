import { describe, expect, it } from 'vitest';
import {
  assessCatalogReadiness,
  type CatalogStatus,
  type LastImportSummary,
  priceAgeHours,
  type ReadinessInput,
} from '#shared/stations/domain/catalog-readiness.ts';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const HOUR = 3_600_000;

const imported: CatalogStatus = {
  source: 'imported',
  version: 'import-20261128T0600Z',
  stationCount: 6214,
  importedAt: '2026-11-28T06:05:00.000Z',
  newestPriceUpdatedAtMs: NOW - 10 * HOUR,
};
const synthetic: CatalogStatus = {
  source: 'synthetic',
  version: 'synthetic-g1-p1-geo2',
  stationCount: 1800,
  importedAt: null,
  newestPriceUpdatedAtMs: NOW - 0.2 * HOUR,
};
const refusal = (at: string): LastImportSummary => ({
  source: 's3://feed/incoming/two-rows.csv',
  outcome: 'refused',
  version: 'import-20261128T1100Z',
  at,
  reasons: ['The file would remove 6212 of 6214 stations (99.97%), more than the 10% allowed.'],
});
const assess = (overrides: Partial<ReadinessInput>) =>
  assessCatalogReadiness({
    stage: 'prod',
    catalog: imported,
    lastImport: null,
    staleAfterHours: 36,
    nowMs: NOW,
    ...overrides,
  });

describe('priceAgeHours', () => {
  it('is hours to a tenth: 16 h 41 min is 16.7', () => {
    expect(priceAgeHours(NOW - (16 * 60 + 41) * 60_000, NOW)).toBe(16.7);
  });

  it('is 0 for a price stamped after now (another clock ahead of ours)', () => {
    expect(priceAgeHours(NOW + 5 * 60_000, NOW)).toBe(0);
  });
});

describe('assessCatalogReadiness', () => {
  it('is ready on production with an imported catalog whose newest price is 10 hours old', () => {
    expect(assess({})).toEqual({ ready: true, problems: [], newestPriceAgeHours: 10, stale: false });
  });

  it('is not ready on production while it serves the synthetic catalog, and says how to publish', () => {
    const result = assess({ catalog: synthetic });

    expect(result.ready).toBe(false);
    expect(result.stale).toBe(false);
    expect(result.problems).toEqual([expect.stringContaining('synthetic station catalog')]);
    expect(result.problems[0]).toContain('incoming/');
  });

  it('is ready on the sandbox with the synthetic catalog, which it serves by design', () => {
    expect(assess({ stage: 'sandbox', catalog: synthetic })).toMatchObject({ ready: true, problems: [] });
  });

  it('is stale one tenth of an hour past the threshold, not at it', () => {
    const at = assess({ catalog: { ...imported, newestPriceUpdatedAtMs: NOW - 36 * HOUR } });
    const past = assess({ catalog: { ...imported, newestPriceUpdatedAtMs: NOW - 36.1 * HOUR } });

    expect(at).toMatchObject({ ready: true, stale: false, newestPriceAgeHours: 36 });
    expect(past).toMatchObject({ ready: false, stale: true, newestPriceAgeHours: 36.1 });
    expect(past.problems).toEqual([
      "The newest station price is 36.1 hours old, past the 36-hour threshold: the price feed has stopped; check the provider's drops and the last import's report.",
    ]);
  });

  it('counts an imported catalog that does not record its newest price as stale: its age is unknown', () => {
    const result = assess({ catalog: { ...imported, newestPriceUpdatedAtMs: null } });

    expect(result).toMatchObject({ ready: false, stale: true, newestPriceAgeHours: null });
    expect(result.problems[0]).toContain('import-20261128T0600Z does not record when its newest price');
  });

  it('is not ready when the latest file was refused after the served catalog was published, naming the file and why', () => {
    const result = assess({ lastImport: refusal('2026-11-28T11:00:00.000Z') });

    expect(result.ready).toBe(false);
    expect(result.problems).toEqual([
      'The latest price file s3://feed/incoming/two-rows.csv was refused at 2026-11-28T11:00:00.000Z (The file would remove 6212 of 6214 stations (99.97%), more than the 10% allowed.); catalog import-20261128T0600Z is still served: fix the file and drop it again.',
    ]);
  });

  it('ignores a refusal older than the served catalog, and published or dry-run imports', () => {
    expect(assess({ lastImport: refusal('2026-11-28T05:00:00.000Z') }).ready).toBe(true);
    expect(
      assess({ lastImport: { ...refusal('2026-11-28T11:00:00.000Z'), outcome: 'dry_run', reasons: [] } })
        .ready,
    ).toBe(true);
  });

  it('lists every problem at once: synthetic on production and the first file refused', () => {
    const result = assess({ catalog: synthetic, lastImport: refusal('2026-11-28T11:00:00.000Z') });

    expect(result.problems).toHaveLength(2);
    expect(result.problems[1]).toContain('was refused');
  });
});
