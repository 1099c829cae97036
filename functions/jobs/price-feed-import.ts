import type { EventBridgeEvent } from 'aws-lambda';
import {
  logPriceFeedJob,
  type PriceFeedImportJob,
  type PriceFeedJobResult,
  runPriceFeedImport,
} from '#shared/stations/usecases/price-feed-job.ts';
import { priceFeedImportJob } from '#shared/stations/wiring/price-feed.ts';
import { once } from '#shared/wiring/once.ts';

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
    logPriceFeedJob(file, result);
    return result;
  };
}

/** Built on the first event, not at import time, and reused by the container's later events. */
export const handler = createPriceFeedImportHandler(once(() => priceFeedImportJob()));
