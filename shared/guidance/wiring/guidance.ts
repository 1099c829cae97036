import type { EventRecorder } from '#shared/events/usecases/event-recording.ts';
import { detectedFuelings } from '#shared/fuelings/wiring/fuelings.ts';
import { createVehiclePositionStore } from '#shared/tracking/store/vehicle-positions.ts';
import { createVehicleTrackingStore } from '#shared/tracking/store/vehicle-tracking.ts';
import type { OfflineSweepDeps } from '#shared/tracking/usecases/offline-sweep.ts';
import { eventRecorder } from '#shared/webhooks/wiring/webhooks.ts';
import { type Infrastructure, perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { tableStores, vehicleReader } from '#shared/wiring/table-stores.ts';
import { createGuidanceSessionArchive } from '../store/guidance-session-archive.ts';
import { createRecommendedStopStore } from '../store/recommended-stops.ts';
import type { GuidanceReadDeps, GuidanceWriteDeps } from '../usecases/guidance.ts';

/*
 * Live guidance without planning: reading and changing a session, and the offline sweep. Planning
 * (routing, the catalog) is wired in guidance-planning.ts, so these functions bundle neither.
 */

/** What a caller may put in place of the real collaborators (tests record events in memory). */
export interface GuidanceParts {
  events: EventRecorder;
}

/** The per-vehicle stores guidance writes through. */
export const guidanceStores = /* @__PURE__ */ perInfrastructure(({ client, config }) => ({
  tracking: createVehicleTrackingStore(client, config.tableName),
  sessionArchive: createGuidanceSessionArchive(client, config.tableName),
  recommendations: createRecommendedStopStore(client, config.tableName),
  positions: createVehiclePositionStore(client, config.tableName),
}));

export function createGuidanceWriteDeps(
  infra: Infrastructure,
  parts: GuidanceParts = { events: eventRecorder(infra) },
): GuidanceWriteDeps {
  const { counters, plans } = tableStores(infra);
  const vehicles = vehicleReader(infra);
  const { tracking, sessionArchive, recommendations } = guidanceStores(infra);
  return {
    vehicles,
    counters,
    plan: (name) => plans.get(name),
    tracking,
    sessionArchive,
    recommendations,
    fuelings: detectedFuelings(infra, parts.events),
    events: parts.events,
    now: infra.clock.now,
  };
}

/** GET/DELETE guidance, acknowledge, deactivation's end of a session. */
export const guidanceWriteDeps = /* @__PURE__ */ perInfrastructure((infra) => createGuidanceWriteDeps(infra));

/** The every-minute offline sweep. */
export const offlineSweepDeps = /* @__PURE__ */ perInfrastructure(
  (infra): OfflineSweepDeps => ({
    ...guidanceStores(infra),
    fuelings: detectedFuelings(infra),
    events: eventRecorder(infra),
    now: infra.clock.now,
  }),
);

/** GET guidance: reads the vehicle and its session, so it bundles no writer (docs/cold-starts.md). */
export const guidanceReadDeps = /* @__PURE__ */ perInfrastructure(
  (infra): GuidanceReadDeps => ({
    vehicles: vehicleReader(infra),
    tracking: guidanceStores(infra).tracking,
    now: infra.clock.now,
  }),
);
