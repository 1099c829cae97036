import {
  GetObjectCommand,
  type GetObjectCommandOutput,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { PRICE_FEED_BUCKET_ENV } from '#shared/platform/price-feed-config.ts';
import {
  PRICE_FEED_PREFIXES,
  PRICE_FILE_MAX_BYTES,
  PriceFileTooLargeError,
} from '../domain/price-feed-guards.ts';

/**
 * The stage's price feed bucket (prefixes: {@link PRICE_FEED_PREFIXES}): reads dropped files and
 * writes the import's report beside them.
 */

/** The variable naming the bucket (set on the import function by the stage's stack). */
export { PRICE_FEED_BUCKET_ENV };

export interface PriceFeedFiles {
  readonly bucket: string;
  /**
   * The object's text (UTF-8), of the given version when there is one (the bucket is versioned: the
   * version the event announced, not a newer upload). Throws {@link PriceFileTooLargeError} over the cap.
   */
  read(key: string, versionId?: string): Promise<string>;
  /** Writes `report` as JSON to `reports/<key>.json`; returns that key. */
  writeReport(key: string, report: unknown): Promise<string>;
}

export function createPriceFeedFiles(
  client: S3Client,
  bucket: string,
  maxBytes = PRICE_FILE_MAX_BYTES,
): PriceFeedFiles {
  return {
    bucket,

    async read(key, versionId) {
      let object: GetObjectCommandOutput;
      try {
        object = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: key, ...(versionId ? { VersionId: versionId } : {}) }),
        );
      } catch (error) {
        throw explainS3Error(error, bucket, key);
      }
      if (object.ContentLength !== undefined && object.ContentLength > maxBytes) {
        // Close the response stream rather than read what will be refused anyway.
        (object.Body as { destroy?: () => void } | undefined)?.destroy?.();
        throw new PriceFileTooLargeError(object.ContentLength);
      }
      if (!object.Body) throw new Error(`s3://${bucket}/${key} came back without a body`);
      return object.Body.transformToString('utf-8');
    },

    async writeReport(key, report) {
      const reportKey = reportKeyOf(key);
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: reportKey,
            Body: `${JSON.stringify(report, null, 2)}\n`,
            ContentType: 'application/json',
          }),
        );
      } catch (error) {
        throw explainS3Error(error, bucket, reportKey);
      }
      return reportKey;
    },
  };
}

/** `incoming/2026-11-28/prices.csv` → `reports/incoming/2026-11-28/prices.csv.json`. */
export function reportKeyOf(key: string): string {
  return `${PRICE_FEED_PREFIXES.reports}${key}.json`;
}

/** What a missing bucket or key means for the person who has to fix it. */
function explainS3Error(error: unknown, bucket: string, key: string): unknown {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NoSuchBucket') {
    return new Error(
      `Bucket '${bucket}' does not exist: set ${PRICE_FEED_BUCKET_ENV} to the stage's price feed bucket (stack output PriceFeedBucketName)`,
      { cause: error },
    );
  }
  if (name === 'NoSuchKey') {
    return new Error(
      `s3://${bucket}/${key} does not exist: it was deleted or renamed before the import read it`,
      {
        cause: error,
      },
    );
  }
  return error;
}
