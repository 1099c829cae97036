import { createGuidanceWriteDeps } from '#shared/guidance/wiring/guidance.ts';
import { createLatestPositionReader } from '#shared/tracking/store/vehicle-positions.ts';
import { eventRecorder } from '#shared/webhooks/wiring/webhooks.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { tableStores, vehicleReader } from '#shared/wiring/table-stores.ts';
import { createTripStore } from '../store/trips.ts';
import type { TripChangeDeps, TripStartDeps } from '../usecases/trips.ts';

/**
 * A trip's follow-up without its planning: starting and ending a trip, a stop's arrival and
 * departure, a vehicle's deactivation and the sweep of outboxes left behind. Apart from trips.ts so
 * those functions bundle no route planner (docs/cold-starts.md).
 */
export const tripChangeDeps = /* @__PURE__ */ perInfrastructure(
  (infra): TripChangeDeps => ({
    trips: createTripStore(infra.client, infra.config.tableName, infra.cursors),
    fleets: tableStores(infra).fleets,
    positions: createLatestPositionReader(infra.client, infra.config.tableName),
    events: eventRecorder(infra),
    guidance: createGuidanceWriteDeps(infra),
    now: infra.clock.now,
  }),
);

/** POST /v1/trips/{id}/start: the follow-up and the vehicle's check, without the route planner. */
export const tripStartDeps = /* @__PURE__ */ perInfrastructure(
  (infra): TripStartDeps => ({ ...tripChangeDeps(infra), vehicles: vehicleReader(infra) }),
);
