import { S3Client } from '@aws-sdk/client-s3';
import { required } from '#shared/platform/config.ts';
import { type Infrastructure, infrastructure, perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { priceFeedPolicyFromEnv } from '../domain/price-feed-guards.ts';
import { createPriceFeedFiles, PRICE_FEED_BUCKET_ENV } from '../store/price-feed-files.ts';
import { createStationCatalogStore } from '../store/station-catalog.ts';
import type { PriceFeedImportJob } from '../usecases/price-feed-job.ts';

/** One S3 client per infrastructure (only the import function bundles it). */
const s3Client = /* @__PURE__ */ perInfrastructure(
  ({ config }) => new S3Client({ region: config.region, maxAttempts: 3 }),
);

/**
 * What the import function runs on: the stage's bucket (`PRICE_FEED_BUCKET`) and table, and the
 * guards' thresholds from the environment (defaults when unset).
 */
export function priceFeedImportJob(
  infra: Infrastructure = infrastructure(),
  env: NodeJS.ProcessEnv = process.env,
): PriceFeedImportJob {
  return {
    files: createPriceFeedFiles(s3Client(infra), required(env, PRICE_FEED_BUCKET_ENV)),
    catalog: createStationCatalogStore(infra.client, infra.config.tableName),
    now: infra.clock.now,
    policy: priceFeedPolicyFromEnv(env),
    table: { name: infra.config.tableName, region: infra.config.region },
  };
}
