import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { EVENT_API_VERSION, EVENT_RETENTION_DAYS, type EventType } from '../domain/events.ts';
import type { Stage } from '../platform/config.ts';
import { newId } from '../platform/ids.ts';
import { formatTimestamp } from '../platform/time.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { ttlEpochSeconds } from './table.ts';

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
}

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
  return {
    async record(fleetId, type, data, options = {}) {
      const { Attributes } = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: sequenceKey(fleetId),
          UpdateExpression: 'ADD #value :one',
          ExpressionAttributeNames: { '#value': 'value' },
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      const event = buildEvent(stage, fleetId, Number(Attributes?.value), type, data, now());
      await client.send(new PutCommand({ TableName: tableName, Item: toEventItem(event, options) }));
      await announce(event, options.partnerId ?? null);
      return event;
    },
  };
}
