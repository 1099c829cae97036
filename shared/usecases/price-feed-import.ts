import {
  type PriceFileFormat,
  parseCatalogRows,
  priceFileRows,
  type RejectedRow,
} from '../domain/stations/catalog-import.ts';
import {
  type CatalogDiff,
  diffCatalogs,
  PRICE_FILE_MAX_BYTES,
  type PriceFeedPolicy,
  priceFileRefusals,
} from '../domain/stations/price-feed-guards.ts';
import { formatTimestamp } from '../platform/time.ts';
import type { PriceImportRecord, StationCatalogStore } from '../store/station-catalog.ts';

/** How many rejected rows an outcome lists; the count covers them all. */
export const REJECTED_ROWS_LISTED = 100;

export interface PriceFileInput {
  /** The file's text. */
  text: string;
  /** From the file's name; null when it is neither `.csv` nor `.json` (refused). */
  format: PriceFileFormat | null;
  /** `s3://bucket/key` or the local file's base name. */
  source: string;
  /** Validate and diff only: no station is written and the current catalog stays. */
  dryRun: boolean;
  policy: PriceFeedPolicy;
}

export interface PriceImportDeps {
  catalog: Pick<StationCatalogStore, 'current' | 'load' | 'publish' | 'recordImport'>;
  now: () => number;
  onProgress?: (written: number) => void;
}

export interface PriceImportOutcome {
  source: string;
  outcome: PriceImportRecord['outcome'];
  /** The catalog version published, or the one it would have been. */
  version: string;
  at: string;
  /** Data rows in the file. */
  totalRows: number;
  accepted: number;
  /** The first {@link REJECTED_ROWS_LISTED} rejected rows by line. */
  rejected: RejectedRow[];
  rejectedCount: number;
  /** Against the current catalog (an empty one when the stage serves the synthetic catalog); null when the file was unreadable. */
  diff: CatalogDiff | null;
  /** What the file replaces: the imported catalog now current, or the synthetic one. */
  replaces: { source: 'imported'; version: string; stationCount: number } | { source: 'synthetic' };
  /** The newest price among the accepted rows. */
  newestPriceUpdatedAt: string | null;
  /** Why it was refused; empty otherwise. */
  reasons: string[];
}

/**
 * Validates a price file, diffs it against the current catalog and, unless a guard refuses it or
 * it is a dry run, publishes it as the new current catalog. Every attempt is recorded as the
 * latest import (the readiness report reads it). Throws only when the table cannot be read or
 * written; a bad file is an outcome, not an error.
 */
export async function importPriceFile(
  input: PriceFileInput,
  deps: PriceImportDeps,
): Promise<PriceImportOutcome> {
  const nowMs = deps.now();
  const base = { source: input.source, version: catalogVersionAt(nowMs), at: formatTimestamp(nowMs) };
  const pointer = await deps.catalog.current();
  const replaces: PriceImportOutcome['replaces'] = pointer
    ? { source: 'imported', version: pointer.version, stationCount: pointer.count }
    : { source: 'synthetic' };

  const unreadable = fileRefusal(input);
  if (unreadable) return refuse(deps, { ...base, replaces, reason: unreadable });
  const file = priceFileRows(input.text, input.format as PriceFileFormat);
  if (!file.ok) return refuse(deps, { ...base, replaces, reason: file.reason });

  const { stations, rejected } = parseCatalogRows(file.rows, { nowMs });
  const current = pointer ? await deps.catalog.load(pointer.version) : [];
  const diff = diffCatalogs(current, stations);
  const reasons = priceFileRefusals(
    {
      totalRows: file.rows.length,
      acceptedRows: stations.length,
      diff,
      currentImportedCount: pointer ? current.length : null,
    },
    input.policy,
  );
  const newestPriceUpdatedAt = stations.length
    ? formatTimestamp(Math.max(...stations.map((station) => station.priceUpdatedAtMs)))
    : null;
  const outcome: PriceImportOutcome = {
    ...base,
    outcome: reasons.length ? 'refused' : input.dryRun ? 'dry_run' : 'published',
    totalRows: file.rows.length,
    accepted: stations.length,
    rejected: rejected.slice(0, REJECTED_ROWS_LISTED),
    rejectedCount: rejected.length,
    diff,
    replaces,
    newestPriceUpdatedAt,
    reasons,
  };
  if (outcome.outcome === 'published') {
    await deps.catalog.publish(
      {
        version: outcome.version,
        count: stations.length,
        importedAt: outcome.at,
        source: input.source,
        newestPriceUpdatedAt,
      },
      stations,
      deps.onProgress,
    );
  }
  await deps.catalog.recordImport(recordOf(outcome));
  return outcome;
}

/**
 * Records a file refused before it could be read (too large to fetch): the same outcome and
 * record as any other refusal.
 */
export async function refusePriceFile(
  input: { source: string; reason: string },
  deps: Pick<PriceImportDeps, 'catalog' | 'now'>,
): Promise<PriceImportOutcome> {
  const nowMs = deps.now();
  const pointer = await deps.catalog.current();
  return refuse(deps, {
    source: input.source,
    version: catalogVersionAt(nowMs),
    at: formatTimestamp(nowMs),
    replaces: pointer
      ? { source: 'imported', version: pointer.version, stationCount: pointer.count }
      : { source: 'synthetic' },
    reason: input.reason,
  });
}

/** The size a file may have, said the way a person reads it. */
export function tooLargeReason(sizeBytes: number): string {
  const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  return `The file is ${mb(sizeBytes)}; a price file may be at most ${mb(PRICE_FILE_MAX_BYTES)}. Leave out columns the feed does not read (docs/price-feed.md).`;
}

function fileRefusal(input: PriceFileInput): string | undefined {
  if (input.format === null) {
    return `${input.source} is not a .csv or .json file; the price feed takes CSV with a header row or a JSON array (docs/price-feed.md).`;
  }
  const bytes = Buffer.byteLength(input.text, 'utf8');
  return bytes > PRICE_FILE_MAX_BYTES ? tooLargeReason(bytes) : undefined;
}

async function refuse(
  deps: Pick<PriceImportDeps, 'catalog'>,
  facts: Pick<PriceImportOutcome, 'source' | 'version' | 'at' | 'replaces'> & { reason: string },
): Promise<PriceImportOutcome> {
  const outcome: PriceImportOutcome = {
    source: facts.source,
    outcome: 'refused',
    version: facts.version,
    at: facts.at,
    totalRows: 0,
    accepted: 0,
    rejected: [],
    rejectedCount: 0,
    diff: null,
    replaces: facts.replaces,
    newestPriceUpdatedAt: null,
    reasons: [facts.reason],
  };
  await deps.catalog.recordImport(recordOf(outcome));
  return outcome;
}

function recordOf(outcome: PriceImportOutcome): PriceImportRecord {
  return {
    source: outcome.source,
    outcome: outcome.outcome,
    version: outcome.version,
    at: outcome.at,
    acceptedRows: outcome.accepted,
    rejectedRows: outcome.rejectedCount,
    reasons: outcome.reasons,
  };
}

/** `import-20261121T000000`: sortable, and names the moment it was made. */
function catalogVersionAt(nowMs: number): string {
  return `import-${formatTimestamp(nowMs).replace(/[-:.]/g, '').slice(0, 15)}`;
}
