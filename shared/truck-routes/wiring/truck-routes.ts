import { stationSources } from '#shared/stations/wiring/stations.ts';
import { createVehiclePositionStore } from '#shared/tracking/store/vehicle-positions.ts';
import { createVehicleTrackingStore } from '#shared/tracking/store/vehicle-tracking.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { tableStores, vehicleReader } from '#shared/wiring/table-stores.ts';
import { createTruckRouteStore } from '../store/truck-routes.ts';
import type { TruckRouteDeps } from '../usecases/truck-routes.ts';

/** POST and GET /v1/routes: fuel-optimized truck routes. */
export const truckRouteDeps = /* @__PURE__ */ perInfrastructure((infra): TruckRouteDeps => {
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
    routes: createTruckRouteStore(client, config.tableName),
    tracking: createVehicleTrackingStore(client, config.tableName),
    now: infra.clock.now,
  };
});
