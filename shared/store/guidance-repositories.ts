import { config } from '../platform/config.ts';
import type { GuidanceWriteDeps, StartGuidanceDeps } from '../usecases/guidance.ts';
import type { OfflineSweepDeps } from '../usecases/offline-sweep.ts';
import type { VehicleUpdateDeps } from '../usecases/vehicle-updates.ts';
import { eventRecorder } from './delivery-repositories.ts';
import { documentClient } from './dynamo-client.ts';
import { createFuelingStore, type FuelingStore } from './fuelings.ts';
import { createGuidanceRouteStore, type GuidanceRouteStore } from './guidance-routes.ts';
import { createGuidanceSessionArchive, type GuidanceSessionArchive } from './guidance-session-archive.ts';
import { positionRepositories } from './position-repositories.ts';
import { repositories } from './repositories.ts';
import { stationRepositories } from './station-repositories.ts';
import { createVehicleTrackingStore, type VehicleTrackingStore } from './vehicle-tracking.ts';

let tracking: VehicleTrackingStore | undefined;

/** The per-vehicle tracking item (detection state, guidance session, online status). */
export function trackingStore(): VehicleTrackingStore {
  tracking ??= createVehicleTrackingStore(documentClient(), config().tableName);
  return tracking;
}

/** What reading and changing a guidance session needs (no routing, no catalog). */
export function guidanceWriteDeps(): GuidanceWriteDeps {
  const { vehicles, counters } = repositories();
  return {
    fuelings: fuelingStore(),
    vehicles,
    counters,
    tracking: trackingStore(),
    sessionArchive: sessionArchiveStore(),
    events: eventRecorder(),
    now: Date.now,
  };
}

/** Starting a session plans it: routing, the catalog and the latest position too. */
export function startGuidanceDeps(): StartGuidanceDeps {
  const { catalog, fuelDiscounts, router } = stationRepositories();
  routes ??= createGuidanceRouteStore(documentClient(), config().tableName);
  return {
    ...guidanceWriteDeps(),
    positions: positionRepositories().positions,
    router,
    catalog,
    discounts: fuelDiscounts,
    routes,
  };
}

let routes: GuidanceRouteStore | undefined;

/** What the offline sweep needs (it carries out outboxes, so fuelings too). */
export function offlineSweepDeps(): OfflineSweepDeps {
  return {
    fuelings: fuelingStore(),
    tracking: trackingStore(),
    sessionArchive: sessionArchiveStore(),
    positions: positionRepositories().positions,
    events: eventRecorder(),
    now: Date.now,
  };
}

/** What the guidance worker's cycle needs. */
export function vehicleUpdateDeps(): VehicleUpdateDeps {
  return { ...startGuidanceDeps(), positions: positionRepositories().positions };
}

let fuelings: FuelingStore | undefined;

function fuelingStore(): FuelingStore {
  fuelings ??= createFuelingStore(documentClient(), config().tableName);
  return fuelings;
}

let sessionArchive: GuidanceSessionArchive | undefined;

function sessionArchiveStore(): GuidanceSessionArchive {
  sessionArchive ??= createGuidanceSessionArchive(documentClient(), config().tableName);
  return sessionArchive;
}
