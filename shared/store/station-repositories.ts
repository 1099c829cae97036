import type { RoutingEngine } from '../geo/routing-engine.ts';
import { createRoutingEngine } from '../geo/routing-engine-factory.ts';
import { buildSyntheticCatalog, SYNTHETIC_CATALOG_VERSION } from '../geo/synthetic-catalog.ts';
import { config } from '../platform/config.ts';
import type { RouteDeps } from '../usecases/routes.ts';
import { type CatalogProvider, createCatalogProvider } from '../usecases/station-catalog.ts';
import { documentClient } from './dynamo-client.ts';
import { createFuelDiscountStore, type FuelDiscountStore } from './fuel-discounts.ts';
import { repositories } from './repositories.ts';
import { createRouteStore, type RouteStore } from './routes.ts';
import { createStationCatalogStore } from './station-catalog.ts';
import { createVehiclePositionStore } from './vehicle-positions.ts';

/**
 * Station-side repositories, apart from `repositories()` so that only the functions that price
 * stations bundle the highway graph and the synthetic catalog.
 */
export function stationRepositories(): {
  catalog: CatalogProvider;
  fuelDiscounts: FuelDiscountStore;
  router: RoutingEngine;
} {
  if (cached) return cached;
  const { tableName } = config();
  const client = documentClient();
  cached = {
    fuelDiscounts: createFuelDiscountStore(client, tableName),
    catalog: createCatalogProvider({
      store: createStationCatalogStore(client, tableName),
      synthetic: syntheticCatalog,
      now: Date.now,
    }),
    // The embedded engine is the default on every stage; Amazon Location plugs in behind the same port.
    router: createRoutingEngine({ ROUTING_ENGINE: config().routingEngine, AWS_REGION: config().region }),
  };
  return cached;
}

let cached: ReturnType<typeof stationRepositories> | undefined;
let synthetic: { version: string; stations: ReturnType<typeof buildSyntheticCatalog> } | undefined;

/** Built once per container, on first use (~30 ms), and only when no imported catalog is current. */
function syntheticCatalog() {
  synthetic ??= { version: SYNTHETIC_CATALOG_VERSION, stations: buildSyntheticCatalog(Date.now()) };
  return synthetic;
}

/** Everything POST/GET /v1/routes needs, built once per container. */
export function routeRepositories() {
  if (routeCache) return routeCache;
  const { tableName } = config();
  const client = documentClient();
  const { catalog, fuelDiscounts, router } = stationRepositories();
  const { vehicles, counters } = repositories();
  routeCache = {
    router,
    catalog,
    discounts: fuelDiscounts,
    vehicles,
    counters,
    positions: createVehiclePositionStore(client, tableName),
    routes: createRouteStore(client, tableName),
  };
  return routeCache;
}

let routeCache: (Omit<RouteDeps, 'now'> & { routes: RouteStore }) | undefined;
