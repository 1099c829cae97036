import type { ReadinessDeps } from '#shared/admin/usecases/readiness.ts';
import { buildSyntheticCatalog, syntheticCatalogVersion } from '#shared/geo/synthetic-catalog.ts';
import { priceFeedBucket, stalePriceHours } from '#shared/platform/price-feed-config.ts';
import { emitPriceFreshness } from '#shared/platform/price-feed-metrics.ts';
import { type Infrastructure, perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { createStationCatalogStore } from '../store/station-catalog.ts';
import type { CatalogStatusDeps } from '../usecases/catalog-status.ts';
import type { PriceFreshnessDeps } from '../usecases/price-freshness.ts';

/** The catalog store and the synthetic catalog (built on first use, only when nothing was imported). */
const catalogStatusDeps = (infra: Infrastructure) => {
  let synthetic: ReturnType<CatalogStatusDeps['synthetic']> | undefined;
  return {
    store: createStationCatalogStore(infra.client, infra.config.tableName),
    synthetic: () => {
      synthetic ??= {
        version: syntheticCatalogVersion(),
        stations: buildSyntheticCatalog(infra.clock.now()),
      };
      return synthetic;
    },
  };
};

/** GET /admin/v1/readiness: the bucket and the threshold come from the environment (lib/fleet-fuel-stack.ts). */
export const readinessDeps = /* @__PURE__ */ perInfrastructure(
  (infra): ReadinessDeps => ({
    ...catalogStatusDeps(infra),
    stage: infra.config.stage,
    routingEngine: infra.config.routingEngine,
    priceFeedBucket: priceFeedBucket(),
    staleAfterHours: stalePriceHours(),
    now: infra.clock.now,
  }),
);

/** The freshness job (functions/jobs/price-freshness.ts). */
export const priceFreshnessDeps = /* @__PURE__ */ perInfrastructure(
  (infra): PriceFreshnessDeps => ({
    ...catalogStatusDeps(infra),
    now: infra.clock.now,
    report: emitPriceFreshness,
  }),
);
