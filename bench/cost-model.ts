/**
 * What one truck costs to run per 30-day month on AWS, from counted operations per breadcrumb ×
 * published list prices. Pure: the operations are measured elsewhere (bench/cost.ts composes
 * `benchWriteUnits()`'s DynamoDB units with the local stack's usage counters) and handed in.
 *
 * Prices are AWS's public on-demand list prices for us-east-1 (US East, N. Virginia), read
 * 2026-11-24; free tiers are left out (a fleet passes them in hours). docs/cost.md shows the same table.
 */

export interface Price {
  /** US dollars per one `unit`. */
  usd: number;
  unit: string;
  /** Where the price is published. */
  source: string;
  /** How it was checked on the day it was read; "not confirmed" says so. */
  checked: string;
}

const READ_ON = '2026-11-24';

/** One gigabyte as DynamoDB storage and CloudWatch Logs bill it (decimal). */
export const GB = 1_000_000_000;

export const PRICES = {
  dynamodbWriteRequestUnit: {
    usd: 0.625 / 1_000_000,
    unit: 'write request unit (on-demand, Standard table class)',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    checked: `${READ_ON}: the page renders its figures client-side; $0.625 per million (after the November 2024 halving) confirmed by https://airbyte.com/data-engineering-resources/dynamodb-pricing`,
  },
  dynamodbReadRequestUnit: {
    usd: 0.125 / 1_000_000,
    unit: 'read request unit (on-demand, Standard table class)',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    checked: `${READ_ON}: $0.125 per million confirmed by the same secondary source as writes`,
  },
  dynamodbStorageGbMonth: {
    usd: 0.25,
    unit: 'GB-month of table storage (Standard table class, beyond the first 25 GB)',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    checked: `${READ_ON}: not confirmed from a source read today (the long-standing list price)`,
  },
  dynamodbPitrGbMonth: {
    usd: 0.2,
    unit: 'GB-month of continuous backups (point-in-time recovery, on in lib/data.ts), by table size',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    checked: `${READ_ON}: not confirmed from a source read today (the long-standing list price)`,
  },
  sqsRequest: {
    usd: 0.4 / 1_000_000,
    unit: 'SQS standard-queue request (each 64 KB chunk of a payload is one request)',
    source: 'https://aws.amazon.com/sqs/pricing/',
    checked: `${READ_ON}: 64 KB chunking confirmed; $0.40 per million (first 100 billion a month) not confirmed from a source read today`,
  },
  lambdaRequest: {
    usd: 0.2 / 1_000_000,
    unit: 'Lambda invocation',
    source: 'https://aws.amazon.com/lambda/pricing/',
    checked: `${READ_ON}: $0.20 per million confirmed (the page's worked examples, as transcribed in api-evangelist/aws-lambda plans)`,
  },
  lambdaArmGbSecond: {
    usd: 0.0000133334,
    unit: 'GB-second of Lambda duration on arm64 (first 7.5 billion GB-s a month)',
    source: 'https://aws.amazon.com/lambda/pricing/',
    checked: `${READ_ON}: confirmed by artillery's price table (lib/platform/aws-lambda/prices.js, arm64 base rate)`,
  },
  apiGatewayHttpRequest: {
    usd: 1 / 1_000_000,
    unit: 'API Gateway HTTP API request (first 300 million a month; $0.90 per million beyond)',
    source: 'https://aws.amazon.com/api-gateway/pricing/',
    checked: `${READ_ON}: $1.00 per million confirmed (the page's HTTP API pricing example)`,
  },
  cloudwatchLogsIngestionGb: {
    usd: 0.5,
    unit: 'GB of CloudWatch Logs ingested (Standard log class)',
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
    checked: `${READ_ON}: $0.50 per GB confirmed by https://c3x.dev/blog/cloudwatch-logs-cost-optimization (us-east-1, June 2026)`,
  },
  cloudwatchLogsStorageGbMonth: {
    usd: 0.03,
    unit: 'GB-month of CloudWatch Logs storage (billed compressed)',
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
    checked: `${READ_ON}: $0.03 per GB-month confirmed by the same secondary source`,
  },
} as const satisfies Record<string, Price>;

export type PriceTable = { readonly [Name in keyof typeof PRICES]: Pick<Price, 'usd'> };

/** What one breadcrumb causes, counted on the ingest path (POST /v1/locations → queue → guidance worker). */
export interface BreadcrumbOperations {
  dynamodbWriteUnits: number;
  dynamodbReadUnits: number;
  /** Table bytes (item overhead included) each breadcrumb adds to what history keeps. */
  dynamodbStoredBytes: number;
  /** Billed SQS requests (send, receive, delete; per 64 KB chunk). */
  sqsRequests: number;
  lambdaInvocations: number;
  /** Billed duration × configured memory, in GB-seconds. */
  lambdaGbSeconds: number;
  apiGatewayRequests: number;
  /** Bytes written to CloudWatch Logs (handler output and Lambda's own per-invocation lines). */
  logBytes: number;
}

export interface CostAssumptions {
  /** 43,200 at a one-minute cadence over a 30-day month. */
  breadcrumbsPerMonth: number;
  /** Days of breadcrumbs DynamoDB keeps (history TTL): at steady state a truck stores that many days. */
  historyRetentionDays: number;
  breadcrumbsPerDay: number;
  /** Log groups' retention in days (lib/function-defaults.ts: one month). */
  logRetentionDays: number;
  /**
   * Stored log bytes ÷ ingested bytes. CloudWatch bills storage compressed; the ratio is not known
   * here, so 1 (uncompressed) is the upper bound.
   */
  logStorageRatio: number;
}

export const ONE_MINUTE_CADENCE: CostAssumptions = {
  breadcrumbsPerMonth: 30 * 24 * 60,
  historyRetentionDays: 90,
  breadcrumbsPerDay: 24 * 60,
  logRetentionDays: 30,
  logStorageRatio: 1,
};

export interface CostBreakdown {
  cost_usd_per_vehicle_month: number;
  cost_usd_per_vehicle_month_dynamodb: number;
  cost_usd_per_vehicle_month_sqs: number;
  cost_usd_per_vehicle_month_lambda: number;
  cost_usd_per_vehicle_month_api_gateway: number;
  cost_usd_per_vehicle_month_cloudwatch_logs: number;
  /** The DynamoDB line split: writes, reads, storage (with its point-in-time-recovery backup). */
  cost_usd_per_vehicle_month_dynamodb_writes: number;
  cost_usd_per_vehicle_month_dynamodb_reads: number;
  cost_usd_per_vehicle_month_dynamodb_storage: number;
}

/**
 * Dollars per vehicle-month by service. Each service's cost is the monthly count of its billed
 * operations × its price; the total is their sum.
 *
 * @example
 * costPerVehicleMonth({ dynamodbWriteUnits: 1.2, …, logBytes: 900 }).cost_usd_per_vehicle_month
 */
export function costPerVehicleMonth(
  operations: BreadcrumbOperations,
  prices: PriceTable = PRICES,
  assumptions: CostAssumptions = ONE_MINUTE_CADENCE,
): CostBreakdown {
  const monthly = (perBreadcrumb: number) => perBreadcrumb * assumptions.breadcrumbsPerMonth;
  const writes = monthly(operations.dynamodbWriteUnits) * prices.dynamodbWriteRequestUnit.usd;
  const reads = monthly(operations.dynamodbReadUnits) * prices.dynamodbReadRequestUnit.usd;
  const storedBreadcrumbs = assumptions.historyRetentionDays * assumptions.breadcrumbsPerDay;
  // Point-in-time recovery bills the same table size again at its own rate.
  const storage =
    ((storedBreadcrumbs * operations.dynamodbStoredBytes) / GB) *
    (prices.dynamodbStorageGbMonth.usd + prices.dynamodbPitrGbMonth.usd);
  const dynamodb = writes + reads + storage;
  const sqs = monthly(operations.sqsRequests) * prices.sqsRequest.usd;
  const lambda =
    monthly(operations.lambdaInvocations) * prices.lambdaRequest.usd +
    monthly(operations.lambdaGbSeconds) * prices.lambdaArmGbSecond.usd;
  const apiGateway = monthly(operations.apiGatewayRequests) * prices.apiGatewayHttpRequest.usd;
  const ingestedGb = monthly(operations.logBytes) / GB;
  // At steady state a log group holds `logRetentionDays` of what is ingested.
  const storedLogGb = ((ingestedGb * assumptions.logRetentionDays) / 30) * assumptions.logStorageRatio;
  const logs =
    ingestedGb * prices.cloudwatchLogsIngestionGb.usd + storedLogGb * prices.cloudwatchLogsStorageGbMonth.usd;
  const lines = [dynamodb, sqs, lambda, apiGateway, logs].map(round) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return {
    // The sum of the rounded lines, so the printed breakdown adds up to the printed total.
    cost_usd_per_vehicle_month: round(lines.reduce((sum, line) => sum + line, 0)),
    cost_usd_per_vehicle_month_dynamodb: lines[0],
    cost_usd_per_vehicle_month_sqs: lines[1],
    cost_usd_per_vehicle_month_lambda: lines[2],
    cost_usd_per_vehicle_month_api_gateway: lines[3],
    cost_usd_per_vehicle_month_cloudwatch_logs: lines[4],
    cost_usd_per_vehicle_month_dynamodb_writes: round(writes),
    cost_usd_per_vehicle_month_dynamodb_reads: round(reads),
    cost_usd_per_vehicle_month_dynamodb_storage: round(storage),
  };
}

/**
 * What a fleet pays per truck-month when `guidedShare` of its trucks are under active guidance and
 * the rest are not: the two per-truck figures weighted by their share.
 */
export function mixedFleetCost(guidedUsd: number, unguidedUsd: number, guidedShare: number): number {
  if (!(guidedShare >= 0 && guidedShare <= 1))
    throw new RangeError(`guided share ${guidedShare} is not in [0, 1]`);
  return round(guidedShare * guidedUsd + (1 - guidedShare) * unguidedUsd);
}

/** Tenths of a cent would hide the small lines; 5 decimals keep them visible and the sum honest. */
function round(usd: number): number {
  return Math.round(usd * 100_000) / 100_000;
}

/** GB-seconds Lambda bills for `billedMs` of duration at `memoryMb`. */
export function gbSeconds(billedMs: number, memoryMb: number): number {
  return (billedMs / 1000) * (memoryMb / 1024);
}
