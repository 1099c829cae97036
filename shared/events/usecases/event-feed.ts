import { idTimeMs } from '#shared/kernel/ids.ts';
import { ApiError, notFound } from '#shared/platform/errors.ts';
import { ttlEpochSeconds } from '#shared/table/table.ts';
import type { EventEnvelope } from '../domain/envelope.ts';
import { EVENT_RETENTION_DAYS } from '../domain/events.ts';
import type { EventFeedFilter, EventFeedStore } from '../store/event-feed.ts';

export interface EventFeedDeps {
  feed: EventFeedStore;
  now: () => number;
}

/**
 * The fleet's stored events in sequence order, within the replay window: how a receiver that saw
 * a gap in `sequence` fetches what it missed (docs/events-feed.md).
 */
export function listEvents(
  deps: EventFeedDeps,
  fleetId: string,
  filter: EventFeedFilter,
  limit: number,
  cursor: string | undefined,
) {
  return deps.feed.list(fleetId, filter, limit, cursor, deps.now());
}

const RETENTION_MS = EVENT_RETENTION_DAYS * 86_400_000;

const expired = (eventId: string) =>
  new ApiError('event_expired', `Event ${eventId} is past its ${EVENT_RETENTION_DAYS}-day replay window.`);

/**
 * One event of the acting fleet, byte for byte as delivered. Past the replay window it is 410
 * `event_expired`, as a replay of it would be, whether or not DynamoDB's TTL has removed it yet.
 * An id this fleet does not hold is 404, or 410 when the id's own time (an `evt_` id is a ULID
 * minted when the event occurred) is past the window: the answer then depends on the id alone,
 * never on whether another fleet holds it.
 */
export async function getEvent(
  deps: EventFeedDeps,
  fleetId: string,
  eventId: string,
): Promise<EventEnvelope> {
  const nowMs = deps.now();
  const stored = await deps.feed.find(eventId);
  if (!stored || stored.fleetId !== fleetId) {
    if (nowMs >= idTimeMs(eventId) + RETENTION_MS) throw expired(eventId);
    throw notFound(`Event ${eventId}`);
  }
  if (ttlEpochSeconds(nowMs) >= stored.expiresAt) throw expired(eventId);
  return stored.envelope;
}
