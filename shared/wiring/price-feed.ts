import { S3Client } from '@aws-sdk/client-s3';
import { priceFeedPolicyFromEnv } from '../domain/stations/price-feed-guards.ts';
import { required } from '../platform/config.ts';
import { createPriceFeedFiles, PRICE_FEED_BUCKET_ENV } from '../store/price-feed-files.ts';
import { createStationCatalogStore } from '../store/station-catalog.ts';
import type { PriceFeedImportJob } from '../usecases/price-feed-job.ts';
import { type Infrastructure, infrastructure } from './infrastructure.ts';
import { once } from './once.ts';

/** The price feed bucket's client, built on first use (only the import function bundles the S3 client). */
const priceFeedFiles = /* @__PURE__ */ once(() => {
  const region = process.env.AWS_REGION ?? 'us-east-1';
  return createPriceFeedFiles(
    new S3Client({ region, maxAttempts: 3 }),
    required(process.env, PRICE_FEED_BUCKET_ENV),
  );
});

/** What the import function runs on: the stage's bucket and table, the policy from its environment. */
export function priceFeedImportJob(infra: Infrastructure = infrastructure()): PriceFeedImportJob {
  return {
    files: priceFeedFiles(),
    catalog: createStationCatalogStore(infra.client, infra.config.tableName),
    now: infra.clock.now,
    policy: priceFeedPolicyFromEnv(process.env),
    table: { name: infra.config.tableName, region: infra.config.region },
  };
}
