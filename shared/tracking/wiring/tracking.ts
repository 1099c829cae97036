import { createIntegrationCounterStore } from '#shared/integration-health/store/integration-counters.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { queuesOf, sendingTo } from '#shared/wiring/message-queues.ts';
import { vehicleReader } from '#shared/wiring/table-stores.ts';
import { createLatestPositionReader, createVehiclePositionStore } from '../store/vehicle-positions.ts';
import type { IngestDeps } from '../usecases/ingest.ts';

/**
 * Vehicles and positions for ingest; apart from the station and
 * guidance wiring so these hot functions bundle neither the catalog nor the router.
 */
export const positionStores = /* @__PURE__ */ perInfrastructure((infra) => ({
  vehicles: vehicleReader(infra),
  positions: createVehiclePositionStore(infra.client, infra.config.tableName),
}));

/** POST /v1/locations. */
export const ingestDeps = /* @__PURE__ */ perInfrastructure(
  (infra): IngestDeps => ({
    ...positionStores(infra),
    vehicleUpdates: sendingTo(() => queuesOf(infra).vehicleUpdates()),
    healthCounters: createIntegrationCounterStore(infra.client, infra.config.tableName),
    now: infra.clock.now,
  }),
);

/** GET /v1/vehicles/{id}/location: the vehicle and its latest position, without ingest's writes. */
export const latestLocationDeps = /* @__PURE__ */ perInfrastructure((infra) => ({
  vehicles: vehicleReader(infra),
  positions: createLatestPositionReader(infra.client, infra.config.tableName),
}));
