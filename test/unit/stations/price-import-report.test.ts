import { describe, expect, it } from 'vitest';
import type { PriceImportOutcome } from '#shared/stations/usecases/price-feed-import.ts';
import { priceImportLines, priceImportReport } from '#shared/stations/usecases/price-import-report.ts';

const dryRun: PriceImportOutcome = {
  source: 's3://feed/dry-run/prices.csv',
  outcome: 'dry_run',
  dryRun: true,
  recorded: true,
  version: 'import-20261121T000000',
  at: '2026-11-21T00:00:00.000000Z',
  totalRows: 103,
  accepted: 1,
  rejected: [{ line: 3, reason: 'fuels: must include diesel' }],
  rejectedCount: 102,
  diff: {
    added: 0,
    removed: 1,
    repriced: 1,
    moved: 0,
    unchanged: 0,
    largestPriceMoves: [
      {
        stationId: 'stn_a',
        name: 'Pilot',
        fromUsdPerGallon: 3.459,
        toUsdPerGallon: 3.5,
        changeUsdPerGallon: 0.041,
      },
    ],
  },
  replaces: { source: 'imported', version: 'import-20261120T000000', stationCount: 2 },
  newestPriceUpdatedAt: '2026-11-20T12:00:00.000000Z',
  reasons: [],
};

describe('the price import report', () => {
  it('is the outcome in snake_case, diff and replaced catalog included', () => {
    expect(priceImportReport(dryRun)).toEqual({
      source: 's3://feed/dry-run/prices.csv',
      outcome: 'dry_run',
      version: 'import-20261121T000000',
      at: '2026-11-21T00:00:00.000000Z',
      reasons: [],
      total_rows: 103,
      accepted_rows: 1,
      rejected_rows: 102,
      rejected: [{ line: 3, reason: 'fuels: must include diesel' }],
      newest_price_updated_at: '2026-11-20T12:00:00.000000Z',
      replaces: { source: 'imported', version: 'import-20261120T000000', station_count: 2 },
      diff: {
        added: 0,
        removed: 1,
        repriced: 1,
        moved: 0,
        unchanged: 0,
        largest_price_moves: [
          {
            station_id: 'stn_a',
            name: 'Pilot',
            from_usd_per_gallon: 3.459,
            to_usd_per_gallon: 3.5,
            change_usd_per_gallon: 0.041,
          },
        ],
      },
    });
  });

  it('prints the verdict, the diff, the moves and the rejected rows, saying how many were left out', () => {
    expect(priceImportLines(dryRun)).toEqual([
      's3://feed/dry-run/prices.csv: 103 rows, 1 accepted, 102 rejected.',
      'Dry run: import-20261121T000000 would publish 1 stations; nothing was written.',
      'Diff against import-20261120T000000 (2 stations): 0 added, 1 removed, 1 repriced, 0 moved, 0 unchanged.',
      'Largest price moves:',
      '  stn_a Pilot: $3.459 → $3.500 (+0.041)',
      'line 3: rejected: fuels: must include diesel',
      '… and 101 more rejected rows.',
    ]);
  });

  it('prints a refusal with its reasons and no diff when the file was unreadable', () => {
    const refused: PriceImportOutcome = {
      ...dryRun,
      outcome: 'refused',
      totalRows: 0,
      accepted: 0,
      rejected: [],
      rejectedCount: 0,
      diff: null,
      replaces: { source: 'synthetic' },
      reasons: ['prices.xlsx is not a .csv or .json file.'],
    };
    expect(priceImportLines(refused)).toEqual([
      's3://feed/dry-run/prices.csv: 0 rows, 0 accepted, 0 rejected.',
      'Refused: the current catalog is unchanged.',
      '  - prices.xlsx is not a .csv or .json file.',
    ]);
    expect(priceImportReport(refused)).toMatchObject({ diff: null, replaces: { source: 'synthetic' } });
  });
});
