import { createTripStore } from '../store/trips.ts';
import { createVehiclePositionStore } from '../store/vehicle-positions.ts';
import { createVehicleTrackingStore } from '../store/vehicle-tracking.ts';
import type { TripDeps } from '../usecases/trips.ts';
import { createGuidanceWriteDeps } from './guidance.ts';
import { perInfrastructure } from './infrastructure.ts';
import { stationSources } from './stations.ts';
import { tableStores, vehicleReader } from './table-stores.ts';
import { eventRecorder } from './webhooks.ts';

/**
 * Every trip route: the store, the route planner, the event recorder, the vehicle's guidance and the
 * station-query budget its fuel stops are charged to.
 */
export const tripDeps = /* @__PURE__ */ perInfrastructure((infra): TripDeps => {
  const { catalog, router, fuelTaxes } = stationSources(infra);
  const { fleets, counters, plans } = tableStores(infra);
  const vehicles = vehicleReader(infra);
  const { client, config, cursors } = infra;
  return {
    trips: createTripStore(client, config.tableName, cursors),
    vehicles,
    fleets,
    positions: createVehiclePositionStore(client, config.tableName),
    tracking: createVehicleTrackingStore(client, config.tableName),
    router,
    catalog,
    fuelTaxes,
    events: eventRecorder(infra),
    guidance: createGuidanceWriteDeps(infra),
    counters,
    plan: (name) => plans.get(name),
    now: infra.clock.now,
  };
});
