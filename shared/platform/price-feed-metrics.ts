import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { currentStage } from './config.ts';
import { USAGE_METRICS_NAMESPACE } from './usage-metrics.ts';

/** The stale-price alarm's metric (lib/alarms.ts): hours since the newest station price. */
export const STATION_PRICE_AGE_METRIC = 'StationPriceAgeHours';
/** 1 when the stage serves an imported catalog, 0 on the synthetic one. */
export const IMPORTED_CATALOG_METRIC = 'ImportedCatalog';

/**
 * The freshness job's data point, as CloudWatch embedded metric format in the service's namespace,
 * dimensioned by service and stage like the other metrics. No age when it is unknown: the alarm treats the
 * missing point as breaching. `POWERTOOLS_METRICS_DISABLED=true` turns it off (the local stack).
 */
export function emitPriceFreshness(freshness: {
  source: 'imported' | 'synthetic';
  newestPriceAgeHours: number | null;
}): void {
  // One blob with both values (a single metric would publish on its first addMetric). Powertools adds
  // the service as a dimension, which the alarm's metric names with the stage.
  const metrics = new Metrics({
    namespace: USAGE_METRICS_NAMESPACE,
    serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'fleet-fuel-guidance',
  });
  metrics.addDimensions({ stage: currentStage() });
  if (freshness.newestPriceAgeHours !== null) {
    metrics.addMetric(STATION_PRICE_AGE_METRIC, MetricUnit.Count, freshness.newestPriceAgeHours);
  }
  metrics.addMetric(IMPORTED_CATALOG_METRIC, MetricUnit.Count, freshness.source === 'imported' ? 1 : 0);
  metrics.publishStoredMetrics();
}
