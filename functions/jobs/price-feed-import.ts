import type { EventBridgeEvent } from 'aws-lambda';
import { logger } from '../../shared/platform/observability.ts';
import { emitPriceFeedRefused } from '../../shared/platform/usage-metrics.ts';
import {
  type PriceFeedImportJob,
  type PriceFeedJobResult,
  runPriceFeedImport,
} from '../../shared/usecases/price-feed-job.ts';
import { once } from '../../shared/wiring/once.ts';
import { priceFeedImportJob } from '../../shared/wiring/price-feed.ts';

/** The part of S3's EventBridge "Object Created" event the import reads. */
export interface ObjectCreatedDetail {
  bucket: { name: string };
  object: { key: string; size?: number; 'version-id'?: string };
}

/**
 * Invoked by the stage's EventBridge rule for objects created under `incoming/` or `dry-run/` in
 * the price feed bucket (docs/price-feed.md). A refused file is an outcome (report, log line,
 * `PriceFeedImportsRefused` for a real price file), not a failure: the function fails only when the bucket or the table
 * cannot be used, so its error metric is the job's.
 */
export function createPriceFeedImportHandler(job: () => PriceFeedImportJob) {
  return async (
    event: EventBridgeEvent<'Object Created', ObjectCreatedDetail>,
  ): Promise<PriceFeedJobResult> => {
    const file = {
      bucket: event.detail.bucket.name,
      key: event.detail.object.key,
      versionId: event.detail.object['version-id'],
      size: event.detail.object.size,
    };
    const result = await runPriceFeedImport(file, job());
    if (result.status === 'ignored') {
      logger.warn('Price feed event ignored', { key: file.key, reason: result.reason });
      return result;
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
    return result;
  };
}

/** Built on the first event, not at import time, and reused by the container's later events. */
export const handler = createPriceFeedImportHandler(once(() => priceFeedImportJob()));
