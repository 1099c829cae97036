import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { CursorCodec, Page } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryFilteredPage } from '#shared/table/query-pages.ts';
import { GSI1, ttlEpochSeconds } from '#shared/table/table.ts';
import type { EventEnvelope } from '../domain/envelope.ts';
import { type EventType, MAX_EVENT_SEQUENCE } from '../domain/events.ts';
import { eventKey, storedEnvelope } from './events.ts';

/** A stored event as the feed reads it: the envelope as delivered, and when it leaves the window. */
export interface StoredEvent {
  envelope: EventEnvelope;
  /** Epoch seconds (the item's TTL): past it the event is out of the replay window. */
  expiresAt: number;
}

export interface EventFeedFilter {
  /** Only events with a higher sequence. */
  afterSequence?: number;
  type?: EventType;
}

/**
 * GET /v1/events and GET /v1/events/{id}, read from where the recorder stores events
 * (events.ts): a fleet's events are one key range of its partition in sequence order
 * (`FLEET#…` / `EVT#<12-digit sequence>`), one by id is gsi1 (`EVT#evt_…`). No scans.
 */
export interface EventFeedStore {
  list(
    fleetId: string,
    filter: EventFeedFilter,
    limit: number,
    cursor: string | undefined,
    nowMs: number,
  ): Promise<Page<EventEnvelope>>;
  /** The event with that id, whichever fleet it belongs to (the caller checks); null when gone. */
  find(eventId: string): Promise<(StoredEvent & { fleetId: string }) | null>;
}

export function createEventFeedStore(
  client: DocumentClient,
  tableName: string,
  cursors: CursorCodec,
): EventFeedStore {
  return {
    async list(fleetId, filter, limit, cursor, nowMs) {
      // Nothing can follow the last sequence the key holds (and a 13-digit bound would sort wrong).
      if ((filter.afterSequence ?? 0) >= MAX_EVENT_SEQUENCE) return { data: [], next_cursor: null };
      const scope = `events:${fleetId}:${filter.afterSequence ?? ''}:${filter.type ?? ''}`;
      const filters = ['expires_at > :now'];
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {
        ':pk': `FLEET#${fleetId}`,
        ':from': eventKey(fleetId, (filter.afterSequence ?? 0) + 1).sk,
        // `EVT#` + digits; `EVTSEQ` (the counter) and `EVTKEY#…` (dedupe guards) sort after `EVT#9…`.
        ':to': eventKey(fleetId, MAX_EVENT_SEQUENCE).sk,
        // DynamoDB's TTL removes items late; the window ends when they expire, not when they go.
        ':now': ttlEpochSeconds(nowMs),
      };
      if (filter.type) {
        // An item holding the envelope as a map may carry the type only inside it.
        filters.push('(event_type = :type OR envelope.#type = :type)');
        names['#type'] = 'type';
        values[':type'] = filter.type;
      }
      // A type filter can thin a page: read on until it is full.
      const query = {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        FilterExpression: filters.join(' AND '),
        ...(filter.type ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
      };
      return queryFilteredPage(client, cursors, { scope, cursor, limit }, query, storedEnvelope);
    },

    async find(eventId) {
      const { Items } = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: GSI1,
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
          ExpressionAttributeValues: { ':pk': `EVT#${eventId}`, ':sk': 'EVT' },
        }),
      );
      const item = Items?.[0];
      if (!item) return null;
      const envelope = storedEnvelope(item);
      return { envelope, fleetId: envelope.fleet_id, expiresAt: Number(item.expires_at) };
    },
  };
}
