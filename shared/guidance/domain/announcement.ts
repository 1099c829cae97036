import { guidanceUpdatedEvent, stopApproachingEvent } from '#shared/events/domain/event-payloads.ts';
import type { OutboxEvent } from '#shared/tracking/domain/outbox.ts';
import { announcedOf, type GuidanceSession, type StopSetChange, stopSetChange } from './session.ts';

/** A replan's outcome: the session to store, and the events to record once it is stored. */
export interface GuidanceUpdate {
  session: GuidanceSession;
  events: OutboxEvent[];
}

/** How many approached stops a session remembers (a trip has a handful). */
export const MAX_REMEMBERED_STOPS = 20;

/**
 * What a recomputed session announces: guidance.updated for the first plan and for each material
 * change of the stop set (counted in the revision), guidance.stop_approaching once per stop.
 */
export function announce(fleetId: string, previous: GuidanceSession, next: GuidanceSession): GuidanceUpdate {
  const events: OutboxEvent[] = [];
  const nextAnnounced = announcedOf(next.stops);
  const change: StopSetChange | null =
    previous.revision === 0 ? 'created' : stopSetChange(previous.announced, nextAnnounced);
  let updated = next;
  if (change) {
    updated = { ...next, revision: previous.revision + 1, announced: nextAnnounced };
    events.push(guidanceUpdatedEvent(fleetId, updated, change));
  }
  const first = updated.stops[0];
  if (updated.phase === 'approaching_stop' && first && !updated.approachedStopIds.includes(first.id)) {
    // Bounded: the item is rewritten every cycle; the newest ids are the ones that can recur.
    updated = {
      ...updated,
      approachedStopIds: [...updated.approachedStopIds, first.id].slice(-MAX_REMEMBERED_STOPS),
    };
    events.push(stopApproachingEvent(updated, first));
  }
  return { session: updated, events };
}
