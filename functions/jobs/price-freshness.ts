import { logger } from '#shared/platform/observability.ts';
import { type PriceFreshness, reportPriceFreshness } from '#shared/stations/usecases/price-freshness.ts';
import { priceFreshnessDeps } from '#shared/stations/wiring/catalog-readiness.ts';

/**
 * Invoked every 15 minutes by EventBridge Scheduler (lib/price-feed.ts; locally local/workers.ts);
 * the event carries nothing we need. Reports the newest station price's age for the stale-price alarm.
 */
export const handler = async (): Promise<PriceFreshness> => {
  const freshness = await reportPriceFreshness(priceFreshnessDeps());
  if (freshness.newestPriceAgeHours === null) {
    logger.warn('The catalog does not record its newest price time; no age reported', { ...freshness });
  } else {
    logger.info('Station price freshness', { ...freshness });
  }
  return freshness;
};
