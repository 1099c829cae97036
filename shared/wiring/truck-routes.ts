import { createRouteStore } from '../store/routes.ts';
import { createVehiclePositionStore } from '../store/vehicle-positions.ts';
import { createVehicleTrackingStore } from '../store/vehicle-tracking.ts';
import type { RouteDeps } from '../usecases/routes.ts';
import { perInfrastructure } from './infrastructure.ts';
import { stationSources } from './stations.ts';
import { tableStores, vehicleReader } from './table-stores.ts';

/** POST and GET /v1/routes: fuel-optimized truck routes. */
export const truckRouteDeps = /* @__PURE__ */ perInfrastructure((infra): RouteDeps => {
  const { catalog, router, fuelTaxes } = stationSources(infra);
  const { counters, fleets, plans } = tableStores(infra);
  const vehicles = vehicleReader(infra);
  const { client, config } = infra;
  return {
    router,
    catalog,
    fuelTaxes,
    vehicles,
    fleets,
    counters,
    plan: (name) => plans.get(name),
    positions: createVehiclePositionStore(client, config.tableName),
    routes: createRouteStore(client, config.tableName),
    tracking: createVehicleTrackingStore(client, config.tableName),
    now: infra.clock.now,
  };
});
