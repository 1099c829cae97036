import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { lacksExternalRef, withExternalRef } from '../domain/event-vehicle-ref.ts';
import { EVENT_API_VERSION, EVENT_RETENTION_DAYS, type EventType } from '../domain/events.ts';
import type { Stage } from '../platform/config.ts';
import { canonicalJson } from '../platform/http/json.ts';
import { newId } from '../platform/ids.ts';
import { formatTimestamp } from '../platform/time.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { ttlEpochSeconds } from './table.ts';
import { failedConditionIndexes, isConditionFailure, isTransactionConflict } from './transactions.ts';
import { createVehicleRefReader } from './vehicle-refs.ts';

/** How long a recorder may take to fan an event out before another may do it instead. */
const ANNOUNCE_LEASE_MS = 30_000;
/**
 * A caller that finds the announcement in progress checks back this often, this many times (about
 * a second: a live announcer is done by then; a dead one's lease is better left to a later retry).
 */
const ANNOUNCE_WAIT_MS = 100;
const ANNOUNCE_WAIT_CHECKS = 10;

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

/**
 * The envelope as every delivery carries it and GET /v1/events/{id} answers it: the envelope's
 * members in the spec's order, `data` as its builder wrote it. It is stored with the event
 * (`body`), because DynamoDB keeps no member order in a map: an envelope read back from the table
 * may list its members differently, so the stored text, not a re-serialization, is what counts.
 */
export function eventBody(event: EventEnvelope): string {
  const { id, type, api_version, sandbox, sequence, occurred_at, fleet_id, data } = event;
  return canonicalJson({ id, type, api_version, sandbox, sequence, occurred_at, fleet_id, data });
}

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
export function toEventItem(event: EventEnvelope, options: EventOptions = {}) {
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

export interface EventRecorder {
  record(
    fleetId: string,
    type: EventType,
    data: Record<string, unknown>,
    options?: EventOptions,
  ): Promise<EventEnvelope>;
}

/**
 * The one way features record events. `announce` runs after the event is stored: the composition
 * root (shared/wiring/webhooks.ts) passes the fan-out to the subscribed webhook endpoints. An event
 * about a vehicle gets the vehicle's `external_ref` here when its builder did not set it, so every
 * vehicle event carries it whichever feature recorded it.
 */
export function createEventRecorder(
  client: DocumentClient,
  tableName: string,
  stage: Stage,
  now: () => number = Date.now,
  /** Runs after the event is stored: the webhook fan-out. */
  announce: (event: EventEnvelope, partnerId: string | null) => Promise<unknown> = async () => {},
): EventRecorder {
  const externalRefOf = createVehicleRefReader(client, tableName, now);
  const named = async (fleetId: string, data: Record<string, unknown>) => {
    if (!lacksExternalRef(data)) return data;
    const vehicleId = data.vehicle_id;
    return withExternalRef(
      data,
      typeof vehicleId === 'string' ? await externalRefOf(fleetId, vehicleId) : null,
    );
  };

  /**
   * The event an earlier record with this dedupe key stored. If that record stopped between
   * storing and announcing it (the fan-out failed, the function died), it is announced now: a
   * receiver may then get a delivery twice, with the same event id, which it de-duplicates; it
   * never gets none. While another caller holds the announcement lease, this one waits for it.
   */
  async function recorded(
    fleetId: string,
    dedupeKey: string,
    partnerId: string | null,
  ): Promise<EventEnvelope | null> {
    const key = dedupeGuardKey(fleetId, dedupeKey);
    for (let check = 0; check < ANNOUNCE_WAIT_CHECKS; check++) {
      const { Item: guard } = await client.send(
        new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
      );
      if (!guard) return null;
      const { Item } = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: eventKey(fleetId, Number(guard.sequence)),
          ConsistentRead: true,
        }),
      );
      const event = Item ? storedEnvelope(Item) : null;
      if (!event || guard.announced !== false) return event;
      if (await claimAnnouncement(fleetId, dedupeKey)) {
        await announceAndMark(event, dedupeKey, partnerId);
        return event;
      }
      await new Promise((resolve) => setTimeout(resolve, ANNOUNCE_WAIT_MS));
    }
    // The other caller is still at it (or died holding the lease): the caller retries later.
    throw new Error(`event ${dedupeKey} is being announced elsewhere; retry`);
  }

  /** The lease to announce a stored event: free when never taken or expired. */
  async function claimAnnouncement(fleetId: string, dedupeKey: string): Promise<boolean> {
    const nowMs = now();
    try {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: dedupeGuardKey(fleetId, dedupeKey),
          UpdateExpression: 'SET announcing_until = :until',
          ConditionExpression: 'announced = :false AND announcing_until < :now',
          ExpressionAttributeValues: { ':until': nowMs + ANNOUNCE_LEASE_MS, ':now': nowMs, ':false': false },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async function announceAndMark(event: EventEnvelope, dedupeKey: string, partnerId: string | null) {
    try {
      await announce(event, partnerId);
    } catch (error) {
      // Give the lease back at once, so the retry does not wait for it to run out.
      await client
        .send(
          new UpdateCommand({
            TableName: tableName,
            Key: dedupeGuardKey(event.fleet_id, dedupeKey),
            UpdateExpression: 'SET announcing_until = :zero',
            ExpressionAttributeValues: { ':zero': 0 },
          }),
        )
        .catch(() => undefined);
      throw error;
    }
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: dedupeGuardKey(event.fleet_id, dedupeKey),
        UpdateExpression: 'SET announced = :true',
        ExpressionAttributeValues: { ':true': true },
      }),
    );
  }

  return {
    async record(fleetId, type, builtData, options = {}) {
      const data = await named(fleetId, builtData);
      // The next number and the event are written in one transaction: a failed write burns no
      // number, so receivers never wait for a gap that will not fill (docs/events-feed.md).
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
                    announced: false,
                    // The recorder that stores it holds the lease to announce it.
                    announcing_until: Date.parse(event.occurred_at) + ANNOUNCE_LEASE_MS,
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
            const first = await recorded(fleetId, options.dedupeKey, options.partnerId ?? null);
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
        if (options.dedupeKey) await announceAndMark(event, options.dedupeKey, options.partnerId ?? null);
        else await announce(event, options.partnerId ?? null);
        return event;
      }
    },
  };
}
