import type { Duration } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { STATION_PRICE_AGE_METRIC } from '#shared/platform/price-feed-metrics.ts';
import { PROBLEM_METRIC, USAGE_METRICS_NAMESPACE } from '#shared/platform/usage-metrics.ts';
import { SERVICE_NAME } from './service-environment.ts';

/**
 * No labels here: an alarm renders a labelled metric as a one-metric expression. The dashboard adds its own.
 *
 * The metrics the alarms (lib/alarms.ts) and the operations dashboard (lib/dashboard.ts) both read,
 * built in one place so that what pages and what the on-call operator then looks at are the same series.
 */

/** An HTTP API metric (`Count`, `4xx`, `5xx`, `Latency`) for the whole API: dimension ApiId alone. */
export function apiGatewayMetric(
  httpApiId: string,
  metricName: 'Count' | '4xx' | '5xx' | 'Latency',
  options: { period: Duration; statistic: string; label?: string },
): Metric {
  return new Metric({
    namespace: 'AWS/ApiGateway',
    metricName,
    dimensionsMap: { ApiId: httpApiId },
    ...options,
  });
}

/**
 * A table's read or write throttle events: published per table (and apart per index, under
 * GlobalSecondaryIndexName), unlike ThrottledRequests and SystemErrors, which DynamoDB publishes per
 * operation only.
 */
export function tableThrottleEvents(
  tableName: string,
  metricName: 'ReadThrottleEvents' | 'WriteThrottleEvents',
  period: Duration,
): Metric {
  return new Metric({
    namespace: 'AWS/DynamoDB',
    metricName,
    dimensionsMap: { TableName: tableName },
    period,
    statistic: 'Sum',
  });
}

/**
 * Problem responses with one code, as the functions publish them (shared/platform/usage-metrics.ts,
 * `emitProblem`): Powertools adds the service to the stage and code.
 */
export function problemResponses(stage: string, code: string, period: Duration): Metric {
  return new Metric({
    namespace: USAGE_METRICS_NAMESPACE,
    metricName: PROBLEM_METRIC,
    dimensionsMap: { service: SERVICE_NAME, stage, code },
    period,
    statistic: 'Sum',
  });
}

/** The freshness job's hours since the newest station price (production's price feed). */
export function stationPriceAge(stage: string, period: Duration): Metric {
  return new Metric({
    namespace: USAGE_METRICS_NAMESPACE,
    metricName: STATION_PRICE_AGE_METRIC,
    // Powertools adds the service to every data point's dimensions.
    dimensionsMap: { service: SERVICE_NAME, stage },
    period,
    statistic: 'Maximum',
  });
}
