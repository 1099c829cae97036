import { randomBytes } from 'node:crypto';
import { formatTimestamp } from '#shared/kernel/time.ts';
import {
  type PriceFileFormat,
  parseCatalogRows,
  priceFileRows,
  type RejectedRow,
} from '../domain/catalog-import.ts';
import {
  type CatalogDiff,
  diffCatalogs,
  PRICE_FILE_MAX_BYTES,
  type PriceFeedPolicy,
  priceFileRefusals,
} from '../domain/price-feed-guards.ts';
import {
  CatalogMovedError,
  type PriceImportRecord,
  type StationCatalogStore,
} from '../store/station-catalog.ts';

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
  catalog: Pick<StationCatalogStore, 'current' | 'load' | 'publish' | 'recordImport' | 'recordDryRun'>;
  now: () => number;
  /** The random tail of a catalog version; a few hex digits from the system's generator by default. */
  versionSuffix?: () => string;
  onProgress?: (written: number) => void;
}

export interface PriceImportOutcome {
  source: string;
  outcome: PriceImportRecord['outcome'];
  /** A dry run, refused or not: recorded as the latest dry run, never as the latest import. */
  dryRun: boolean;
  /**
   * False for a file that is not `.csv` or `.json` (a stray object under the prefix): refused and
   * reported, but neither recorded as the latest import nor counted as a refused one.
   */
  recorded: boolean;
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
 * it is a dry run, publishes it as the new current catalog. Every attempt at a price file is
 * recorded, a real one as the latest import (the readiness report judges it), a dry run as the
 * latest dry run. Throws only when the table cannot be read or written; a bad file is an outcome,
 * not an error.
 */
export async function importPriceFile(
  input: PriceFileInput,
  deps: PriceImportDeps,
): Promise<PriceImportOutcome> {
  const nowMs = deps.now();
  const base = {
    source: input.source,
    dryRun: input.dryRun,
    version: catalogVersionAt(nowMs, deps.versionSuffix),
    at: formatTimestamp(nowMs),
  };
  const pointer = await deps.catalog.current();
  const replaces: PriceImportOutcome['replaces'] = pointer
    ? { source: 'imported', version: pointer.version, stationCount: pointer.count }
    : { source: 'synthetic' };

  if (input.format === null) {
    return refuse(deps, { ...base, replaces, reason: notAPriceFile(input.source) }, { record: false });
  }
  const bytes = Buffer.byteLength(input.text, 'utf8');
  if (bytes > PRICE_FILE_MAX_BYTES) return refuse(deps, { ...base, replaces, reason: tooLargeReason(bytes) });
  const file = priceFileRows(input.text, input.format);
  if (!file.ok) return refuse(deps, { ...base, replaces, reason: file.reason });

  const { stations, rejected } = parseCatalogRows(file.rows, { nowMs });
  const current = pointer ? await deps.catalog.load(pointer.version) : [];
  const diff = diffCatalogs(current, stations);
  // A loop, not Math.max(...): a national file has more stations than a call may have arguments.
  const newestMs = stations.reduce(
    (newest, station) => Math.max(newest, station.priceUpdatedAtMs),
    -Infinity,
  );
  const newestPriceUpdatedAt = stations.length ? formatTimestamp(newestMs) : null;
  const currentNewestMs = pointer?.newestPriceUpdatedAt
    ? Date.parse(pointer.newestPriceUpdatedAt)
    : Number.NaN;
  const reasons = priceFileRefusals(
    {
      totalRows: file.rows.length,
      acceptedRows: stations.length,
      diff,
      currentImportedCount: pointer ? current.length : null,
      fileNewestPriceMs: stations.length ? newestMs : null,
      currentNewestPriceMs: Number.isFinite(currentNewestMs) ? currentNewestMs : null,
    },
    input.policy,
  );
  const outcome: PriceImportOutcome = {
    ...base,
    recorded: true,
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
    try {
      await deps.catalog.publish(
        {
          version: outcome.version,
          count: stations.length,
          importedAt: outcome.at,
          source: input.source,
          newestPriceUpdatedAt,
        },
        stations,
        pointer?.version ?? null,
        deps.onProgress,
      );
    } catch (error) {
      if (!(error instanceof CatalogMovedError)) throw error;
      const winner = await deps.catalog.current();
      outcome.outcome = 'refused';
      outcome.reasons = [overtakenReason(winner?.version ?? null)];
    }
  }
  await record(deps, outcome);
  return outcome;
}

/**
 * Records a file refused before it could be read (too large to fetch): the same outcome and
 * record as any other refusal.
 */
export async function refusePriceFile(
  input: { source: string; reason: string; dryRun: boolean },
  deps: Pick<PriceImportDeps, 'catalog' | 'now' | 'versionSuffix'>,
): Promise<PriceImportOutcome> {
  const nowMs = deps.now();
  const pointer = await deps.catalog.current();
  return refuse(deps, {
    source: input.source,
    dryRun: input.dryRun,
    version: catalogVersionAt(nowMs, deps.versionSuffix),
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

function notAPriceFile(source: string): string {
  return `${source} is not a .csv or .json file; the price feed takes CSV with a header row or a JSON array (docs/price-feed.md).`;
}

/** Why a file that passed every guard was not published: another import moved the pointer first. */
function overtakenReason(winner: string | null): string {
  return `Another import published catalog ${winner ?? '(none)'} while this file was being written, so it was not compared with that catalog: drop the file again.`;
}

async function refuse(
  deps: Pick<PriceImportDeps, 'catalog'>,
  facts: Pick<PriceImportOutcome, 'source' | 'dryRun' | 'version' | 'at' | 'replaces'> & { reason: string },
  { record: recordIt } = { record: true },
): Promise<PriceImportOutcome> {
  const outcome: PriceImportOutcome = {
    source: facts.source,
    outcome: 'refused',
    dryRun: facts.dryRun,
    recorded: recordIt,
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
  if (recordIt) await record(deps, outcome);
  return outcome;
}

/** A dry run goes to its own record: trying a file must not change what readiness judges. */
function record(deps: Pick<PriceImportDeps, 'catalog'>, outcome: PriceImportOutcome): Promise<void> {
  return outcome.dryRun
    ? deps.catalog.recordDryRun(recordOf(outcome))
    : deps.catalog.recordImport(recordOf(outcome));
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

/**
 * `import-20261121T000000123-9f3a1c`: sortable, names the moment it was made to the millisecond,
 * and unique even for two files imported at once (their stations must not share partitions).
 */
function catalogVersionAt(nowMs: number, suffix = () => randomBytes(3).toString('hex')): string {
  return `import-${formatTimestamp(nowMs).replace(/[-:.]/g, '').slice(0, 18)}-${suffix()}`;
}
