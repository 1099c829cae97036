import type { EventType } from '#shared/events/domain/events.ts';
import type { RecommendationChange } from '#shared/fuelings/domain/recommendations.ts';
import type { GuidanceSession } from '#shared/guidance/domain/session.ts';
import type { Fueling, StoredVerification } from './fueling-record.ts';

/** An event a committed change still has to record (under its dedupe key). */
export interface OutboxEvent {
  type: EventType;
  data: Record<string, unknown>;
  dedupeKey: string;
}

/**
 * What a committed change still has to do outside the item: written in the same conditional Put
 * as the change, carried out after it, cleared once done. A crash in between leaves it for the
 * next writer, who carries it out first; everything in it is idempotent (dedupe keys, fixed ids).
 */
export interface Outbox {
  events: OutboxEvent[];
  fuelings: Fueling[];
  /** Ended sessions to keep under their own ids. */
  archive: GuidanceSession[];
  /** Stops recommended and withdrawn, for matching fuelings and the savings report (absent before). */
  recommendations?: RecommendationChange[];
  /** Reported purchases re-checked by late breadcrumbs: their new verdicts (absent before). */
  verifications?: RecheckedPurchase[];
}

/** A reported purchase's verdict after late breadcrumbs re-checked it, to write on its record. */
export interface RecheckedPurchase {
  fueling: Pick<Fueling, 'id' | 'fueledAt'>;
  verification: StoredVerification;
}

/** The follow-up work of a change, or null when there is none (no outbox attribute to clear later). */
export function outboxOf(
  events: readonly OutboxEvent[],
  fuelings: readonly Fueling[] = [],
  archive: readonly GuidanceSession[] = [],
  recommendations: readonly RecommendationChange[] = [],
  verifications: readonly RecheckedPurchase[] = [],
): Outbox | null {
  return events.length || fuelings.length || archive.length || recommendations.length || verifications.length
    ? {
        events: [...events],
        fuelings: [...fuelings],
        archive: [...archive],
        ...(recommendations.length ? { recommendations: [...recommendations] } : {}),
        ...(verifications.length ? { verifications: [...verifications] } : {}),
      }
    : null;
}
