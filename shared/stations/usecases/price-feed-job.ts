import { logger } from '#shared/platform/observability.ts';
import { emitPriceFeedRefused } from '#shared/platform/usage-metrics.ts';
import { explainTableError } from '#shared/table/missing-table.ts';
import {
  PRICE_FEED_PREFIXES,
  type PriceFeedPolicy,
  PriceFileTooLargeError,
  priceFileFormatOf,
} from '../domain/price-feed-guards.ts';
import type { PriceFeedFiles } from '../store/price-feed-files.ts';
import {
  importPriceFile,
  type PriceImportDeps,
  type PriceImportOutcome,
  refusePriceFile,
  tooLargeReason,
} from './price-feed-import.ts';
import { priceImportReport } from './price-import-report.ts';

export interface PriceFeedImportJob extends Pick<PriceImportDeps, 'catalog' | 'now'> {
  files: Pick<PriceFeedFiles, 'bucket' | 'read' | 'writeReport'>;
  policy: PriceFeedPolicy;
  /** Named in the error when the table is missing. */
  table: { name: string; region: string };
}

/** One object a price provider dropped in the bucket. */
export interface DroppedFile {
  bucket: string;
  key: string;
  versionId?: string | undefined;
  /** Bytes, as the event gives them; absent when it does not. */
  size?: number | undefined;
}

export type PriceFeedJobResult =
  | { status: 'ignored'; reason: string }
  | { status: 'done'; outcome: PriceImportOutcome; reportKey: string };

/**
 * Imports one dropped file: `incoming/…` publishes, `dry-run/…` only validates and diffs; either
 * way the outcome goes to `reports/<key>.json`. Other keys (the reports themselves), folder
 * placeholders (`incoming/`, `incoming/2026/`) and empty objects are ignored; a file that is
 * neither `.csv` nor `.json` is refused in its report but not recorded as the latest import.
 * Throws only when the bucket or the table cannot be used.
 */
export async function runPriceFeedImport(
  file: DroppedFile,
  job: PriceFeedImportJob,
): Promise<PriceFeedJobResult> {
  const dryRun = file.key.startsWith(PRICE_FEED_PREFIXES.dryRun);
  if (!dryRun && !file.key.startsWith(PRICE_FEED_PREFIXES.publish)) {
    return {
      status: 'ignored',
      reason: `${file.key} is neither under ${PRICE_FEED_PREFIXES.publish} nor ${PRICE_FEED_PREFIXES.dryRun}`,
    };
  }
  // The console's "Create folder" and some sync tools leave these; they are not price files.
  if (file.key.endsWith('/')) {
    return { status: 'ignored', reason: `${file.key} is a folder placeholder, not a price file` };
  }
  if (file.size === 0) {
    return { status: 'ignored', reason: `${file.key} is empty (0 bytes): nothing to import` };
  }
  if (file.bucket !== job.files.bucket) {
    return {
      status: 'ignored',
      reason: `the event is for bucket ${file.bucket}, not this stage's ${job.files.bucket}`,
    };
  }
  const source = `s3://${file.bucket}/${file.key}`;
  const outcome = await importDroppedFile(file, source, dryRun, job).catch((error: unknown) => {
    throw explainTableError(error, job.table.name, job.table.region);
  });
  const reportKey = await job.files.writeReport(file.key, priceImportReport(outcome));
  return { status: 'done', outcome, reportKey };
}

/**
 * What a finished job tells the operators: a log line for every event, and
 * `PriceFeedImportsRefused` for a refused real price file (docs/price-feed.md). A refusal is an
 * outcome, not a failure: only a bucket or table that cannot be used fails the job.
 */
export function logPriceFeedJob(file: Pick<DroppedFile, 'key'>, result: PriceFeedJobResult): void {
  if (result.status === 'ignored') {
    logger.warn('Price feed event ignored', { key: file.key, reason: result.reason });
    return;
  }
  const { outcome, reportKey } = result;
  const line = {
    source: outcome.source,
    outcome: outcome.outcome,
    version: outcome.version,
    acceptedRows: outcome.accepted,
    rejectedRows: outcome.rejectedCount,
    reasons: outcome.reasons,
    diff: outcome.diff && { ...outcome.diff, largestPriceMoves: undefined },
    reportKey,
  };
  if (outcome.outcome === 'refused') {
    logger.warn('Price file refused', { ...line, dryRun: outcome.dryRun });
    // Only a real file the feed depends on: a dry run or a stray object is not the feed stuck.
    if (!outcome.dryRun && outcome.recorded) emitPriceFeedRefused();
  } else {
    logger.info('Price file imported', line);
  }
}

async function importDroppedFile(
  file: DroppedFile,
  source: string,
  dryRun: boolean,
  job: PriceFeedImportJob,
): Promise<PriceImportOutcome> {
  let text: string;
  try {
    text = await job.files.read(file.key, file.versionId);
  } catch (error) {
    if (!(error instanceof PriceFileTooLargeError)) throw error;
    return refusePriceFile({ source, reason: tooLargeReason(error.sizeBytes), dryRun }, job);
  }
  return importPriceFile(
    { text, format: priceFileFormatOf(file.key), source, dryRun, policy: job.policy },
    job,
  );
}
