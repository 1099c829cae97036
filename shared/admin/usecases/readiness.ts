import { assessCatalogReadiness, type CatalogStatus } from '#shared/stations/domain/catalog-readiness.ts';
import type { PriceImportRecord, StationCatalogStore } from '#shared/stations/store/station-catalog.ts';
import { type CatalogStatusDeps, readCatalogStatus } from '#shared/stations/usecases/catalog-status.ts';

/** The engine the embedded graph stands in for when Amazon Location is switched off (docs/routing.md). */
export const ROUTING_FALLBACK = 'embedded';

export interface ReadinessDeps extends CatalogStatusDeps {
  store: Pick<StationCatalogStore, 'current' | 'lastImport' | 'lastDryRun'>;
  stage: 'prod' | 'sandbox';
  routingEngine: string;
  /** The stage's price feed bucket; null where there is none (the sandbox, the local stack). */
  priceFeedBucket: string | null;
  staleAfterHours: number;
  now: () => number;
}

export interface Readiness {
  stage: 'prod' | 'sandbox';
  ready: boolean;
  problems: string[];
  routing: { engine: string; fallback: string };
  catalog: CatalogStatus;
  newestPriceAgeHours: number | null;
  stale: boolean;
  staleAfterHours: number;
  /** Published or refused: what readiness judges. */
  lastImport: PriceImportRecord | null;
  /** Shown for the operator trying a file; never a readiness problem. */
  lastDryRun: PriceImportRecord | null;
  priceFeedBucket: string | null;
}

/**
 * GET /admin/v1/readiness: whether the stage serves what production should (an imported, fresh
 * catalog that the latest price file did not fail to replace), and what it routes with.
 */
export async function readReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const [catalog, lastImport, lastDryRun] = await Promise.all([
    readCatalogStatus(deps),
    deps.store.lastImport(),
    deps.store.lastDryRun(),
  ]);
  const assessed = assessCatalogReadiness({
    stage: deps.stage,
    catalog,
    lastImport,
    staleAfterHours: deps.staleAfterHours,
    nowMs: deps.now(),
  });
  return {
    stage: deps.stage,
    ready: assessed.ready,
    problems: assessed.problems,
    routing: { engine: deps.routingEngine, fallback: ROUTING_FALLBACK },
    catalog,
    newestPriceAgeHours: assessed.newestPriceAgeHours,
    stale: assessed.stale,
    staleAfterHours: deps.staleAfterHours,
    lastImport,
    lastDryRun,
    priceFeedBucket: deps.priceFeedBucket,
  };
}
