import type { CatalogDiff } from '../domain/price-feed-guards.ts';
import type { PriceImportOutcome } from './price-feed-import.ts';

/**
 * What a price file import did, as the JSON report written beside the file
 * (`reports/<key>.json`) and printed by the CLI: snake_case like the API.
 */
export function priceImportReport(outcome: PriceImportOutcome) {
  return {
    source: outcome.source,
    outcome: outcome.outcome,
    version: outcome.version,
    at: outcome.at,
    reasons: outcome.reasons,
    total_rows: outcome.totalRows,
    accepted_rows: outcome.accepted,
    rejected_rows: outcome.rejectedCount,
    rejected: outcome.rejected,
    newest_price_updated_at: outcome.newestPriceUpdatedAt,
    replaces:
      outcome.replaces.source === 'imported'
        ? {
            source: 'imported',
            version: outcome.replaces.version,
            station_count: outcome.replaces.stationCount,
          }
        : { source: 'synthetic' },
    diff: outcome.diff && diffReport(outcome.diff),
  };
}

function diffReport(diff: CatalogDiff) {
  return {
    added: diff.added,
    removed: diff.removed,
    repriced: diff.repriced,
    moved: diff.moved,
    unchanged: diff.unchanged,
    largest_price_moves: diff.largestPriceMoves.map((move) => ({
      station_id: move.stationId,
      name: move.name,
      from_usd_per_gallon: move.fromUsdPerGallon,
      to_usd_per_gallon: move.toUsdPerGallon,
      change_usd_per_gallon: move.changeUsdPerGallon,
    })),
  };
}

/** The same outcome as lines for a terminal: verdict, reasons, diff, then the rejected rows. */
export function priceImportLines(outcome: PriceImportOutcome): string[] {
  const verdict = {
    published: `Published ${outcome.version}: ${outcome.accepted} stations are the current catalog.`,
    dry_run: `Dry run: ${outcome.version} would publish ${outcome.accepted} stations; nothing was written.`,
    refused: 'Refused: the current catalog is unchanged.',
  }[outcome.outcome];
  const replaced =
    outcome.replaces.source === 'imported'
      ? `against ${outcome.replaces.version} (${outcome.replaces.stationCount} stations)`
      : 'against the synthetic catalog (replaced whatever its size)';
  const lines = [
    `${outcome.source}: ${outcome.totalRows} rows, ${outcome.accepted} accepted, ${outcome.rejectedCount} rejected.`,
    verdict,
    ...outcome.reasons.map((reason) => `  - ${reason}`),
  ];
  if (outcome.diff) {
    const { added, removed, repriced, moved, unchanged, largestPriceMoves } = outcome.diff;
    lines.push(
      `Diff ${replaced}: ${added} added, ${removed} removed, ${repriced} repriced, ${moved} moved, ${unchanged} unchanged.`,
    );
    if (largestPriceMoves.length) lines.push('Largest price moves:');
    for (const move of largestPriceMoves) {
      const sign = move.changeUsdPerGallon > 0 ? '+' : '';
      lines.push(
        `  ${move.stationId} ${move.name}: $${move.fromUsdPerGallon.toFixed(3)} → $${move.toUsdPerGallon.toFixed(3)} (${sign}${move.changeUsdPerGallon.toFixed(3)})`,
      );
    }
  }
  for (const row of outcome.rejected) lines.push(`line ${row.line}: rejected: ${row.reason}`);
  if (outcome.rejectedCount > outcome.rejected.length) {
    lines.push(`… and ${outcome.rejectedCount - outcome.rejected.length} more rejected rows.`);
  }
  return lines;
}
