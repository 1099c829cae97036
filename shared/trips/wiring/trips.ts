import { createGuidanceWriteDeps } from '#shared/guidance/wiring/guidance.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import { createVehiclePositionStore } from '#shared/tracking/store/vehicle-positions.ts';
import { createVehicleTrackingStore } from '#shared/tracking/store/vehicle-tracking.ts';
import { eventRecorder } from '#shared/webhooks/wiring/webhooks.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { tableStores, vehicleReader } from '#shared/wiring/table-stores.ts';
import { createTripStore } from '../store/trips.ts';
import type { TripDeps } from '../usecases/trips.ts';

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
