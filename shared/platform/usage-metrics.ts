import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { EndpointFamily } from '#shared/kernel/access.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import { currentStage } from './config.ts';
import { logger } from './observability.ts';

/** The CloudWatch namespace finance reads usage from. */
export const USAGE_METRICS_NAMESPACE = 'FleetFuelGuidance';

/**
 * `StationResults`: stations returned and charged to the month's budget. `StationResultsOverage`:
 * stations live guidance returned after the budget was spent (never refused, invoiced apart), so
 * the two never mix on the dashboard or in the saved queries.
 */
export type UsageMetric = 'ApiCalls' | 'StationResults' | 'StationResultsOverage';

/** Every problem+json response, dimensioned by stage and code (429s by code on the dashboard). */
export const PROBLEM_METRIC = 'ProblemResponses';

export interface UsageRecord {
  metric: UsageMetric;
  count: number;
  stage: string;
  family: EndpointFamily;
  /** The billed account (partner or company fleet) and its plan: metadata, searchable in Logs Insights. */
  accountId: string;
  /** Null when the usage has no key behind it (the guidance worker's re-plans). */
  plan: string | null;
  /** The acting fleet, when known: metadata for per-fleet queries. */
  fleetId?: string | null;
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
    if (record.plan) point.addMetadata('plan', record.plan);
    if (record.fleetId) point.addMetadata('fleet_id', record.fleetId);
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
  fleetId?: string | null,
): void {
  emitUsage({
    metric,
    count,
    stage: currentStage(),
    family,
    accountId: principal.accountId,
    plan: principal.planName,
    // A company key only ever acts on its own fleet; a partner's acting fleet must be passed.
    fleetId: fleetId ?? principal.ownFleetId,
  });
}

/**
 * One problem response as a metric (dimensions stage and code; the status rides as metadata), so
 * the dashboard can chart 429s by code and refusals such as `enumeration_suspected`.
 */
export function emitProblem(code: string, status: number): void {
  try {
    metrics ??= new Metrics({ namespace: USAGE_METRICS_NAMESPACE });
    const point = metrics.singleMetric();
    point.addDimensions({ stage: currentStage(), code });
    point.addMetadata('status', String(status));
    point.addMetric(PROBLEM_METRIC, MetricUnit.Count, 1);
  } catch (error) {
    logger.warn('Problem metric not emitted', { error, code });
  }
}

/** Forgets the metrics instance, so a test can change the environment it reads. */
export function resetUsageMetrics(): void {
  metrics = undefined;
}

/**
 * Price files under `incoming/` a guard refused (dry runs and stray objects are not counted), by
 * `service` (Powertools' default dimension) and `stage`: a feed gone wrong shows on the dashboard
 * before prices go stale.
 */
export const PRICE_FEED_REFUSED_METRIC = 'PriceFeedImportsRefused';

export function emitPriceFeedRefused(): void {
  try {
    metrics ??= new Metrics({ namespace: USAGE_METRICS_NAMESPACE });
    const point = metrics.singleMetric();
    point.addDimensions({ stage: currentStage() });
    point.addMetric(PRICE_FEED_REFUSED_METRIC, MetricUnit.Count, 1);
  } catch (error) {
    logger.warn('Price feed metric not emitted', { error });
  }
}
