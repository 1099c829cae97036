import type { CatalogStatus } from '../domain/catalog-readiness.ts';
import type { Station } from '../domain/station.ts';
import type { StationCatalogStore } from '../store/station-catalog.ts';

export interface CatalogStatusDeps {
  store: Pick<StationCatalogStore, 'current'>;
  /** The embedded catalog, built only when nothing was imported (as the catalog provider does). */
  synthetic: () => { version: string; stations: readonly Pick<Station, 'priceUpdatedAtMs'>[] };
}

/** The catalog the stage serves: the one the pointer names, else the synthetic one. */
export async function readCatalogStatus(deps: CatalogStatusDeps): Promise<CatalogStatus> {
  const pointer = await deps.store.current();
  if (pointer) {
    const newest =
      pointer.newestPriceUpdatedAt === null ? Number.NaN : Date.parse(pointer.newestPriceUpdatedAt);
    return {
      source: 'imported',
      version: pointer.version,
      stationCount: pointer.count,
      importedAt: pointer.importedAt,
      newestPriceUpdatedAtMs: Number.isFinite(newest) ? newest : null,
    };
  }
  const { version, stations } = deps.synthetic();
  return {
    source: 'synthetic',
    version,
    stationCount: stations.length,
    importedAt: null,
    newestPriceUpdatedAtMs:
      stations.length === 0 ? null : Math.max(...stations.map((s) => s.priceUpdatedAtMs)),
  };
}
