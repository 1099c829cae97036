import { priceAgeHours } from '../domain/catalog-readiness.ts';
import { type CatalogStatusDeps, readCatalogStatus } from './catalog-status.ts';

export interface PriceFreshness {
  source: 'imported' | 'synthetic';
  version: string;
  /** Null when the catalog does not record its newest price: no age is reported, and the alarm's missing data pages. */
  newestPriceAgeHours: number | null;
}

export interface PriceFreshnessDeps extends CatalogStatusDeps {
  now: () => number;
  /** Writes the metrics the stale-price alarm watches. */
  report: (freshness: PriceFreshness) => void;
}

/** The freshness job's run: the age of the newest price of the catalog the stage serves. */
export async function reportPriceFreshness(deps: PriceFreshnessDeps): Promise<PriceFreshness> {
  const catalog = await readCatalogStatus(deps);
  const freshness: PriceFreshness = {
    source: catalog.source,
    version: catalog.version,
    newestPriceAgeHours:
      catalog.newestPriceUpdatedAtMs === null
        ? null
        : priceAgeHours(catalog.newestPriceUpdatedAtMs, deps.now()),
  };
  deps.report(freshness);
  return freshness;
}
