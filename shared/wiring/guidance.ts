import type { EventRecorder } from '../store/events.ts';
import { createFuelingStore } from '../store/fuelings.ts';
import { createGuidanceRouteStore } from '../store/guidance-routes.ts';
import { createGuidanceSessionArchive } from '../store/guidance-session-archive.ts';
import { createVehiclePositionStore } from '../store/vehicle-positions.ts';
import { createVehicleTrackingStore } from '../store/vehicle-tracking.ts';
import type { GuidanceWriteDeps, StartGuidanceDeps } from '../usecases/guidance.ts';
import type { OfflineSweepDeps } from '../usecases/offline-sweep.ts';
import type { VehicleUpdateDeps } from '../usecases/vehicle-updates.ts';
import { type Infrastructure, perInfrastructure } from './infrastructure.ts';
import { once } from './once.ts';
import { stationSources } from './stations.ts';
import { tableStores } from './table-stores.ts';
import { eventRecorder } from './webhooks.ts';

/** What a caller may put in place of the real collaborators (tests record events in memory). */
export interface GuidanceParts {
  events: EventRecorder;
}

/**
 * Live guidance: the sessions' API, the guidance worker's cycle and the offline sweep. Each set of
 * dependencies is built on first use, so reading a session builds no router or catalog.
 */
export function createGuidanceWiring(
  infra: Infrastructure,
  parts: GuidanceParts = { events: eventRecorder(infra) },
) {
  const { client, config, clock } = infra;
  const stores = once(() => ({
    tracking: createVehicleTrackingStore(client, config.tableName),
    sessionArchive: createGuidanceSessionArchive(client, config.tableName),
    fuelings: createFuelingStore(client, config.tableName),
    positions: createVehiclePositionStore(client, config.tableName),
  }));
  /** Reading and changing a session (no routing, no catalog). */
  const write = once((): GuidanceWriteDeps => {
    const { vehicles, counters } = tableStores(infra);
    const { tracking, sessionArchive, fuelings } = stores();
    return { vehicles, counters, tracking, sessionArchive, fuelings, events: parts.events, now: clock.now };
  });
  /** Starting a session plans it, and so does the worker's cycle: routing, the catalog, the latest position. */
  const plan = once((): StartGuidanceDeps & VehicleUpdateDeps => {
    const { catalog, discounts, router } = stationSources(infra);
    return {
      ...write(),
      positions: stores().positions,
      router,
      catalog,
      discounts,
      routes: createGuidanceRouteStore(client, config.tableName),
    };
  });
  const offlineSweep = once((): OfflineSweepDeps => ({ ...stores(), events: parts.events, now: clock.now }));
  return { write, start: plan, vehicleUpdate: plan, offlineSweep };
}

/** The container's guidance wiring. */
export const guidanceWiring = perInfrastructure((infra) => createGuidanceWiring(infra));
