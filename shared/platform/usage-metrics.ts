import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { EndpointFamily } from '../domain/access.ts';
import { accountIdOf, type Principal } from '../domain/api-keys.ts';
import { currentStage } from './config.ts';
import { logger } from './observability.ts';

/** The CloudWatch namespace finance reads usage from. */
export const USAGE_METRICS_NAMESPACE = 'FleetFuelGuidance';

export type UsageMetric = 'ApiCalls' | 'StationResults';

export interface UsageRecord {
  metric: UsageMetric;
  count: number;
  stage: string;
  family: EndpointFamily;
  /** The billed account (partner or company fleet) and its plan: metadata, searchable in Logs Insights. */
  accountId: string;
  plan: string;
}

let metrics: Metrics | undefined;

/**
 * One usage data point as CloudWatch embedded metric format, written to stdout at once (a single
 * metric, so nothing waits for the end of the invocation). Dimensions are only stage and family:
 * a dimension per account would be a custom metric per customer; the account and plan ride along
 * as metadata for per-account queries. `POWERTOOLS_METRICS_DISABLED=true` turns it off (the local
 * stack and the tests).
 */
export function emitUsage(record: UsageRecord): void {
  if (record.count <= 0) return;
  try {
    metrics ??= new Metrics({ namespace: USAGE_METRICS_NAMESPACE });
    const point = metrics.singleMetric();
    point.addDimensions({ stage: record.stage, family: record.family });
    point.addMetadata('account_id', record.accountId);
    point.addMetadata('plan', record.plan);
    point.addMetric(record.metric, MetricUnit.Count, record.count);
  } catch (error) {
    // A metric is never worth a failed request.
    logger.warn('Usage metric not emitted', { error, metric: record.metric });
  }
}

/** The usage of one call by a key: counted per account in the table, and emitted for CloudWatch. */
export function emitUsageOf(
  principal: Principal,
  metric: UsageMetric,
  family: EndpointFamily,
  count: number,
): void {
  emitUsage({
    metric,
    count,
    stage: currentStage(),
    family,
    accountId: accountIdOf(principal),
    plan: principal.planName,
  });
}

/** Forgets the metrics instance, so a test can change the environment it reads. */
export function resetUsageMetrics(): void {
  metrics = undefined;
}
