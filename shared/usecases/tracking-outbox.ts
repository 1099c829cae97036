import type { VehicleTracking } from '../domain/tracking/vehicle-tracking.ts';
import type { EventRecorder } from '../store/events.ts';
import type { FuelingStore } from '../store/fuelings.ts';
import type { GuidanceSessionArchive } from '../store/guidance-session-archive.ts';
import type { VehicleTrackingStore } from '../store/vehicle-tracking.ts';

export interface OutboxDeps {
  tracking: Pick<VehicleTrackingStore, 'clearOutbox'>;
  sessionArchive: Pick<GuidanceSessionArchive, 'put'>;
  fuelings: Pick<FuelingStore, 'create'>;
  events: Pick<EventRecorder, 'record'>;
}

/**
 * Carries out what a committed change left in the tracking item's outbox: fuelings first (events
 * name them), the ended sessions' archive, then the events in order, each under its dedupe key.
 * Every writer of the item calls this with what it read before changing it, and with what it
 * stored after; a crash anywhere leaves the outbox for the next one, and nothing in it happens
 * twice (fixed fueling ids, an overwrite of the same archive, dedupe keys).
 */
export async function carryOut(deps: OutboxDeps, tracking: VehicleTracking): Promise<void> {
  const { outbox } = tracking;
  if (!outbox) return;
  for (const fueling of outbox.fuelings) await deps.fuelings.create(tracking.fleetId, fueling);
  for (const session of outbox.archive) await deps.sessionArchive.put(tracking.fleetId, session);
  for (const event of outbox.events) {
    await deps.events.record(tracking.fleetId, event.type, event.data, { dedupeKey: event.dedupeKey });
  }
  await deps.tracking.clearOutbox(tracking);
}
