import type { EventRecorder } from '#shared/events/usecases/event-recording.ts';
import type { GuidanceSessionArchive } from '#shared/guidance/store/guidance-session-archive.ts';
import type { RecommendedStopStore } from '#shared/guidance/store/recommended-stops.ts';
import type { Fueling, StoredVerification } from '../domain/fueling-record.ts';
import type { OutboxEvent } from '../domain/outbox.ts';
import type { VehicleTracking } from '../domain/vehicle-tracking.ts';
import type { VehicleTrackingStore } from '../store/vehicle-tracking.ts';

export interface OutboxDeps {
  tracking: Pick<VehicleTrackingStore, 'clearOutbox'>;
  sessionArchive: Pick<GuidanceSessionArchive, 'put'>;
  /** Records a detected fill: merged with a reported one, matched, counted (fueling-records.ts). */
  fuelings: {
    recordDetected(fleetId: string, fueling: Fueling, matched: OutboxEvent | null): Promise<unknown>;
    announcementOf(fleetId: string, fueling: Pick<Fueling, 'id' | 'fueledAt'>): Promise<OutboxEvent | null>;
    /** Writes a reported purchase's verdict after late breadcrumbs re-checked it. */
    recordVerification(
      fleetId: string,
      fueling: Pick<Fueling, 'id' | 'fueledAt'>,
      verification: StoredVerification,
    ): Promise<void>;
  };
  recommendations: Pick<RecommendedStopStore, 'recommended' | 'withdrawn'>;
  events: Pick<EventRecorder, 'record'>;
}

/**
 * Carries out what a committed change left in the tracking item's outbox: fuelings first (events
 * name them), re-checked purchase verdicts, the ended sessions' archive, then the events in order,
 * each under its dedupe key.
 * Every writer of the item calls this with what it read before changing it, and with what it
 * stored after; a crash anywhere leaves the outbox for the next one, and nothing in it happens
 * twice (fixed fueling ids, an overwrite of the same archive, dedupe keys).
 */
export async function carryOut(deps: OutboxDeps, tracking: VehicleTracking): Promise<void> {
  const { outbox } = tracking;
  if (!outbox) return;
  const recommendations = outbox.recommendations ?? [];
  // Stops recommended first (a fill of this cycle may follow one), withdrawn after the fills.
  for (const change of recommendations) {
    if (change.kind === 'recommended') await deps.recommendations.recommended(tracking.fleetId, change.stop);
  }
  // A detection's fueling.matched goes with its record (fueling-records.ts), which keeps it only
  // when it is the fill's one announcement (not when the detection joins a matched card record).
  const matchedOf = (fueling: Fueling) =>
    outbox.events.find((e) => e.type === 'fueling.matched' && e.data.fueling_id === fueling.id) ?? null;
  for (const fueling of outbox.fuelings) {
    await deps.fuelings.recordDetected(tracking.fleetId, fueling, matchedOf(fueling));
  }
  for (const change of recommendations) {
    if (change.kind === 'withdrawn') await deps.recommendations.withdrawn(tracking.fleetId, change);
  }
  // Re-checked verdicts before the events: a `fueling.flagged` names a record that says so.
  for (const { fueling, verification } of outbox.verifications ?? []) {
    await deps.fuelings.recordVerification(tracking.fleetId, fueling, verification);
  }
  for (const session of outbox.archive) await deps.sessionArchive.put(tracking.fleetId, session);
  const fills = new Map(outbox.fuelings.map((f) => [f.id, f]));
  const record = (event: OutboxEvent) =>
    deps.events.record(tracking.fleetId, event.type, event.data, { dedupeKey: event.dedupeKey });
  for (const outboxEvent of outbox.events) {
    const fill = fills.get(outboxEvent.data.fueling_id as string);
    if (outboxEvent.type === 'fueling.matched' && fill) {
      const event = await deps.fuelings.announcementOf(tracking.fleetId, fill);
      if (event) await record(event);
      continue;
    }
    await record(outboxEvent);
    // A detection the worker did not match may have matched a recommended-stop record when it was
    // recorded (fueling-records.ts): its announcement follows its fueling.recorded.
    if (outboxEvent.type === 'fueling.recorded' && fill && !matchedOf(fill)) {
      const event = await deps.fuelings.announcementOf(tracking.fleetId, fill);
      if (event) await record(event);
    }
  }
  await deps.tracking.clearOutbox(tracking);
}
