import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { EVENT_API_VERSION, EVENT_RETENTION_DAYS, type EventType } from '../domain/events.ts';
import type { Stage } from '../platform/config.ts';
import { newId } from '../platform/ids.ts';
import { formatTimestamp } from '../platform/time.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { ttlEpochSeconds } from './table.ts';
import { failedConditionIndexes, isConditionFailure, isTransactionConflict } from './transactions.ts';

/** Events of one fleet rarely race; many concurrent writers still all get through. */
const MAX_SEQUENCE_ATTEMPTS = 60;

/**
 * Events live under their fleet, ordered by the per-fleet sequence (`EVT#000000000042`), and are
 * found by id through gsi1 (`EVT#evt_…`). The sequence counter is one atomic `ADD` per event.
 */
export const eventKey = (fleetId: string, sequence: number) => ({
  pk: `FLEET#${fleetId}`,
  sk: `EVT#${String(sequence).padStart(12, '0')}`,
});
export const sequenceKey = (fleetId: string) => ({ pk: `FLEET#${fleetId}`, sk: 'EVTSEQ' });

export interface EventEnvelope {
  id: string;
  type: EventType;
  api_version: string;
  sandbox: boolean;
  sequence: number;
  occurred_at: string;
  fleet_id: string;
  data: Record<string, unknown>;
}

export interface EventOptions {
  /** The partner whose partner-level endpoints also receive it (fleet.provisioned). */
  partnerId?: string | null;
  /**
   * Names this occurrence (e.g. `vehicle.fuel_low:veh_…:1763769600000`): a second record with the
   * same key returns the first event instead of a new one. Workers that may run twice on the same
   * input (a redelivered queue message) record through it, so receivers see each occurrence once.
   */
  dedupeKey?: string;
}

export const dedupeGuardKey = (fleetId: string, dedupeKey: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `EVTKEY#${dedupeKey}`,
});

export function buildEvent(
  stage: Stage,
  fleetId: string,
  sequence: number,
  type: EventType,
  data: Record<string, unknown>,
  nowMs: number,
): EventEnvelope {
  return {
    id: newId('event', nowMs),
    type,
    api_version: EVENT_API_VERSION,
    sandbox: stage === 'sandbox',
    sequence,
    occurred_at: formatTimestamp(nowMs),
    fleet_id: fleetId,
    data,
  };
}

export function toEventItem(event: EventEnvelope, options: EventOptions = {}) {
  const occurredMs = Date.parse(event.occurred_at);
  return {
    ...eventKey(event.fleet_id, event.sequence),
    gsi1pk: `EVT#${event.id}`,
    gsi1sk: 'EVT',
    envelope: event,
    partner_id: options.partnerId ?? null,
    expires_at: ttlEpochSeconds(occurredMs + EVENT_RETENTION_DAYS * 86_400_000),
  };
}

export interface EventRecorder {
  record(
    fleetId: string,
    type: EventType,
    data: Record<string, unknown>,
    options?: EventOptions,
  ): Promise<EventEnvelope>;
}

/**
 * The one way features record events. Fan-out to webhook endpoints hooks in here (webhooks issue).
 */
export function createEventRecorder(
  client: DocumentClient,
  tableName: string,
  stage: Stage,
  now: () => number = Date.now,
  /** Runs after the event is stored: the webhook fan-out. */
  announce: (event: EventEnvelope, partnerId: string | null) => Promise<unknown> = async () => {},
): EventRecorder {
  /** The event an earlier record with this dedupe key stored (not announced again: it was then). */
  async function recorded(fleetId: string, dedupeKey: string): Promise<EventEnvelope | null> {
    const { Item: guard } = await client.send(
      new GetCommand({ TableName: tableName, Key: dedupeGuardKey(fleetId, dedupeKey), ConsistentRead: true }),
    );
    if (!guard) return null;
    const { Item } = await client.send(
      new GetCommand({
        TableName: tableName,
        Key: eventKey(fleetId, Number(guard.sequence)),
        ConsistentRead: true,
      }),
    );
    return (Item?.envelope as EventEnvelope | undefined) ?? null;
  }

  return {
    async record(fleetId, type, data, options = {}) {
      // The next number and the event are written in one transaction: a failed write burns no
      // number, so receivers never wait for a gap that will not fill (spec section 6).
      for (let attempt = 1; ; attempt++) {
        const { Item } = await client.send(
          new GetCommand({ TableName: tableName, Key: sequenceKey(fleetId), ConsistentRead: true }),
        );
        const previous = Number(Item?.value ?? 0);
        const event = buildEvent(stage, fleetId, previous + 1, type, data, now());
        const guard = options.dedupeKey
          ? [
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    ...dedupeGuardKey(fleetId, options.dedupeKey),
                    sequence: event.sequence,
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
                    Item: { ...sequenceKey(fleetId), value: previous + 1 },
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
                    Item: toEventItem(event, options),
                    ConditionExpression: 'attribute_not_exists(pk)',
                  },
                },
                ...guard,
              ],
            }),
          );
        } catch (error) {
          if (options.dedupeKey && failedConditionIndexes(error).includes(2)) {
            const first = await recorded(fleetId, options.dedupeKey);
            if (first) return first;
          }
          // Another event of this fleet took the number first: read again and retry.
          if (
            !(isConditionFailure(error) || isTransactionConflict(error)) ||
            attempt >= MAX_SEQUENCE_ATTEMPTS
          )
            throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * Math.min(attempt, 10)));
          continue;
        }
        await announce(event, options.partnerId ?? null);
        return event;
      }
    },
  };
}
