import { StationIndex } from '#shared/geo/station-index.ts';
import type { Station } from '../domain/station.ts';
import type { StationCatalogStore } from '../store/station-catalog.ts';

/** How often a container asks whether a new catalog was imported. */
export const CATALOG_POINTER_TTL_MS = 60_000;

export interface CatalogProvider {
  current(): Promise<StationIndex>;
}

/**
 * The catalog a container queries: the imported one the table's pointer names, or, when nothing
 * was imported, the embedded synthetic one. The spatial index is rebuilt only when the version
 * changes; the pointer is re-read at most once a minute.
 */
export function createCatalogProvider(options: {
  store: Pick<StationCatalogStore, 'current' | 'load'>;
  synthetic: () => { version: string; stations: Station[] };
  now: () => number;
}): CatalogProvider {
  let index: StationIndex | undefined;
  let checkedAt = -Infinity;

  return {
    async current() {
      if (index && options.now() - checkedAt < CATALOG_POINTER_TTL_MS) return index;
      const pointer = await options.store.current();
      checkedAt = options.now();
      const version = pointer?.version ?? options.synthetic().version;
      if (index?.version !== version) {
        const stations = pointer ? await options.store.load(pointer.version) : options.synthetic().stations;
        index = new StationIndex(version, stations);
      }
      return index;
    },
  };
}
