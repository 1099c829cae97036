import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { ttlEpochSeconds } from '#shared/table/table.ts';
import {
  conditionalWrite,
  failedConditionIndexes,
  isConditionFailure,
  isTransactionConflict,
} from '#shared/table/transactions.ts';
import { type EventEnvelope, eventBody } from '../domain/envelope.ts';
import { EVENT_RETENTION_DAYS } from '../domain/events.ts';

/**
 * Events live under their fleet, ordered by the per-fleet sequence (`EVT#000000000042`), and are
 * found by id through gsi1 (`EVT#evt_…`). The sequence counter moves with each event, in its
 * transaction (`append`).
 */
export const eventKey = (fleetId: string, sequence: number) => ({
  pk: `FLEET#${fleetId}`,
  sk: `EVT#${String(sequence).padStart(12, '0')}`,
});
export const sequenceKey = (fleetId: string) => ({ pk: `FLEET#${fleetId}`, sk: 'EVTSEQ' });

export const dedupeGuardKey = (fleetId: string, dedupeKey: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `EVTKEY#${dedupeKey}`,
});

/**
 * A stored event's envelope, its members in the delivered order. Items hold the text (`body`);
 * an item holding the map (`envelope`), alone or beside the text, is read alike.
 */
export function storedEnvelope(item: Record<string, unknown>): EventEnvelope {
  return typeof item.body === 'string'
    ? (JSON.parse(item.body) as EventEnvelope)
    : (item.envelope as EventEnvelope);
}

/**
 * The stored event. The envelope is kept once, as the delivered text: a copy as a map doubled the
 * item (a stop_approaching event was 1.3 KB, two write units and two for its gsi1 entry, where the
 * text alone is under 1 KB). The type is a plain attribute for the feed's type filter; the
 * partner only when there is one (fleet.provisioned).
 */
export function toEventItem(event: EventEnvelope, options: { partnerId?: string | null } = {}) {
  const occurredMs = Date.parse(event.occurred_at);
  return {
    ...eventKey(event.fleet_id, event.sequence),
    gsi1pk: `EVT#${event.id}`,
    gsi1sk: 'EVT',
    event_type: event.type,
    body: eventBody(event),
    ...(options.partnerId ? { partner_id: options.partnerId } : {}),
    expires_at: ttlEpochSeconds(occurredMs + EVENT_RETENTION_DAYS * 86_400_000),
  };
}

/** A dedupe key's guard item: which event it names and whether that event was fanned out. */
export interface DedupeGuard {
  sequence: number;
  announced: boolean;
}

/**
 * What an append did. `duplicate`: the dedupe key names an earlier event, nothing was written.
 * `sequence_taken`: another event of the fleet took the number first (or the write raced one),
 * nothing was written; `cause` is the store's error, for a caller that gives up.
 */
export type AppendOutcome =
  | { kind: 'stored' }
  | { kind: 'duplicate'; cause: unknown }
  | { kind: 'sequence_taken'; cause: unknown };

export interface AppendOptions {
  partnerId?: string | null;
  /** Writes the dedupe key's guard with the event, its announcement leased until `leaseUntilMs`. */
  guard?: { dedupeKey: string; leaseUntilMs: number };
}

/**
 * The events' items: the per-fleet sequence counter, the events, and the dedupe guards with their
 * announcement lease. Reads and conditional writes only; when to number, dedupe and announce is
 * the recorder's (shared/events/usecases/event-recording.ts).
 */
export interface EventStore {
  /** The fleet's last used sequence number, 0 before its first event. */
  lastSequence(fleetId: string): Promise<number>;
  /**
   * Writes the counter (from `previous` to the event's sequence), the event and, with a guard, the
   * dedupe guard in one transaction: a failed write burns no number, so receivers never wait for a
   * gap that will not fill (docs/events-feed.md).
   */
  append(event: EventEnvelope, previous: number, options?: AppendOptions): Promise<AppendOutcome>;
  guardOf(fleetId: string, dedupeKey: string): Promise<DedupeGuard | null>;
  eventAt(fleetId: string, sequence: number): Promise<EventEnvelope | null>;
  /** Takes the lease to announce until `untilMs`: only when not announced and the lease ran out by `nowMs`. */
  claimAnnouncement(fleetId: string, dedupeKey: string, nowMs: number, untilMs: number): Promise<boolean>;
  /** Gives the lease back at once. */
  releaseAnnouncement(fleetId: string, dedupeKey: string): Promise<void>;
  markAnnounced(fleetId: string, dedupeKey: string): Promise<void>;
}

export function createEventStore(client: DocumentClient, tableName: string): EventStore {
  /** Sets one attribute of a dedupe guard: the announce lease's end, or that it was announced. */
  const setOnGuard = (fleetId: string, dedupeKey: string, attribute: string, value: unknown) =>
    client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: dedupeGuardKey(fleetId, dedupeKey),
        UpdateExpression: 'SET #attribute = :value',
        ExpressionAttributeNames: { '#attribute': attribute },
        ExpressionAttributeValues: { ':value': value },
      }),
    );
  return {
    async lastSequence(fleetId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: sequenceKey(fleetId), ConsistentRead: true }),
      );
      return Number(Item?.value ?? 0);
    },

    async append(event, previous, options = {}) {
      const { fleet_id: fleetId } = event;
      const guard = options.guard
        ? [
            {
              Put: {
                TableName: tableName,
                Item: {
                  ...dedupeGuardKey(fleetId, options.guard.dedupeKey),
                  sequence: event.sequence,
                  announced: false,
                  announcing_until: options.guard.leaseUntilMs,
                  expires_at: toEventItem(event).expires_at,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ]
        : [];
      try {
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: { ...sequenceKey(fleetId), value: event.sequence },
                  ConditionExpression: previous === 0 ? 'attribute_not_exists(pk)' : '#value = :previous',
                  ...(previous === 0
                    ? {}
                    : {
                        ExpressionAttributeNames: { '#value': 'value' },
                        ExpressionAttributeValues: { ':previous': previous },
                      }),
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: toEventItem(event, { partnerId: options.partnerId ?? null }),
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              ...guard,
            ],
          }),
        );
        return { kind: 'stored' };
      } catch (error) {
        if (options.guard && failedConditionIndexes(error).includes(2))
          return { kind: 'duplicate', cause: error };
        if (isConditionFailure(error) || isTransactionConflict(error))
          return { kind: 'sequence_taken', cause: error };
        throw error;
      }
    },

    async guardOf(fleetId, dedupeKey) {
      const { Item } = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: dedupeGuardKey(fleetId, dedupeKey),
          ConsistentRead: true,
        }),
      );
      return Item ? { sequence: Number(Item.sequence), announced: Item.announced !== false } : null;
    },

    async eventAt(fleetId, sequence) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: eventKey(fleetId, sequence), ConsistentRead: true }),
      );
      return Item ? storedEnvelope(Item) : null;
    },

    async claimAnnouncement(fleetId, dedupeKey, nowMs, untilMs) {
      return conditionalWrite(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: dedupeGuardKey(fleetId, dedupeKey),
            UpdateExpression: 'SET announcing_until = :until',
            ConditionExpression: 'announced = :false AND announcing_until < :now',
            ExpressionAttributeValues: { ':until': untilMs, ':now': nowMs, ':false': false },
          }),
        ),
      );
    },

    async releaseAnnouncement(fleetId, dedupeKey) {
      await setOnGuard(fleetId, dedupeKey, 'announcing_until', 0);
    },

    async markAnnounced(fleetId, dedupeKey) {
      await setOnGuard(fleetId, dedupeKey, 'announced', true);
    },
  };
}
