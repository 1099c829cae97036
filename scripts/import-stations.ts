/**
 * Validates a price file and, unless a guard refuses it, makes it the stage's current catalog:
 *
 *   TABLE_NAME=<stage table> [DYNAMODB_ENDPOINT=…] npm run stations:import -- [--dry-run]
 *     [--min-accepted-share 0.95] [--max-station-loss-share 0.1] <file.csv|file.json|s3://bucket/key>
 *
 * The same guards and report as the stage's import function (docs/price-feed.md). Prints the
 * verdict, the diff against the current catalog and the rejected rows; exits 0 when published or
 * dry-run, 2 when refused, 1 on a usage or infrastructure error.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { S3Client } from '@aws-sdk/client-s3';
import {
  PRICE_FEED_POLICY_ENV,
  PRICE_FILE_MAX_BYTES,
  PriceFileTooLargeError,
  parseShare,
  priceFeedPolicyFromEnv,
  priceFileFormatOf,
} from '#shared/stations/domain/price-feed-guards.ts';
import { createPriceFeedFiles } from '#shared/stations/store/price-feed-files.ts';
import { createStationCatalogStore } from '#shared/stations/store/station-catalog.ts';
import {
  importPriceFile,
  refusePriceFile,
  tooLargeReason,
} from '#shared/stations/usecases/price-feed-import.ts';
import { priceImportLines } from '#shared/stations/usecases/price-import-report.ts';
import { createDocumentClient } from '#shared/table/dynamo-client.ts';
import { explainTableError } from '#shared/table/missing-table.ts';

const USAGE =
  'Usage: TABLE_NAME=<table> npm run stations:import -- [--dry-run] [--min-accepted-share 0.95] [--max-station-loss-share 0.1] <file.csv|file.json|s3://bucket/key>';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const args = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        'dry-run': { type: 'boolean', default: false },
        'min-accepted-share': { type: 'string' },
        'max-station-loss-share': { type: 'string' },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`);
  }
})();
const [file = '', ...extra] = args.positionals;
const tableName = process.env.TABLE_NAME ?? '';
if (!file || extra.length > 0 || !tableName) fail(USAGE);

const region = process.env.AWS_REGION ?? 'us-east-1';
const policy = (() => {
  try {
    const fromEnv = priceFeedPolicyFromEnv(process.env);
    const min = args.values['min-accepted-share'];
    const max = args.values['max-station-loss-share'];
    return {
      minAcceptedShare:
        min === undefined ? fromEnv.minAcceptedShare : parseShare(min, '--min-accepted-share'),
      maxStationLossShare:
        max === undefined ? fromEnv.maxStationLossShare : parseShare(max, '--max-station-loss-share'),
    };
  } catch (error) {
    return fail((error as Error).message);
  }
})();

let progressShown = false;
const deps = {
  catalog: createStationCatalogStore(
    createDocumentClient({ region, endpoint: process.env.DYNAMODB_ENDPOINT }),
    tableName,
  ),
  now: () => Date.now(),
  onProgress: (written: number) => {
    // Progress every 1,000 stations so long imports show they are moving.
    if (written % 1000 === 0) {
      process.stderr.write(`\r${written} stations written`);
      progressShown = true;
    }
  },
};

const s3 = /^s3:\/\/([^/]+)\/(.+)$/.exec(file);
const source = s3 ? file : basename(file);

/** The file's text, or why it cannot be read (too large: refused and recorded like any refusal). */
async function readSource(): Promise<{ text: string } | { tooLarge: number }> {
  if (s3) {
    const [, bucket = '', key = ''] = s3;
    try {
      return { text: await createPriceFeedFiles(new S3Client({ region }), bucket).read(key) };
    } catch (error) {
      if (error instanceof PriceFileTooLargeError) return { tooLarge: error.sizeBytes };
      throw error;
    }
  }
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return fail(`${file}: no such file`);
  }
  return size > PRICE_FILE_MAX_BYTES ? { tooLarge: size } : { text: readFileSync(file, 'utf8') };
}

try {
  const read = await readSource();
  const outcome =
    'tooLarge' in read
      ? await refusePriceFile(
          { source, reason: tooLargeReason(read.tooLarge), dryRun: args.values['dry-run'] },
          deps,
        )
      : await importPriceFile(
          {
            text: read.text,
            format: priceFileFormatOf(file),
            source,
            dryRun: args.values['dry-run'],
            policy,
          },
          deps,
        );
  if (progressShown) process.stderr.write('\n');
  const lines = priceImportLines(outcome);
  (outcome.outcome === 'refused' ? console.error : console.log)(lines.join('\n'));
  if (outcome.outcome === 'refused') {
    console.error(
      `Thresholds: ${PRICE_FEED_POLICY_ENV.minAcceptedShare}=${policy.minAcceptedShare}, ${PRICE_FEED_POLICY_ENV.maxStationLossShare}=${policy.maxStationLossShare} (or the flags).`,
    );
    process.exit(2);
  }
} catch (error) {
  fail(String((explainTableError(error, tableName, region) as Error).message ?? error));
}
