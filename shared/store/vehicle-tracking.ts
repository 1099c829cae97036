import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { GuidanceSession } from '../domain/guidance/session.ts';
import type { TrackerState } from '../domain/telematics/tracker.ts';
import type { Outbox } from '../domain/tracking/outbox.ts';
import { emptyTracking, type VehicleTracking } from '../domain/tracking/vehicle-tracking.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { GSI1 } from './table.ts';
import { isConditionFailure, isTransactionConflict } from './transactions.ts';

/**
 * A vehicle's tracking state lives in one item (`FLEET#…`/`VEHTRACK#veh_…`) so one conditional
 * write commits a guidance cycle.
 *
 * The offline sweep finds silent vehicles through a sparse index without scanning the table: while
 * a vehicle is online, a tiny heartbeat item (`VEHSEEN#veh_…`) sits in gsi1 under
 * `VEHONLINE#<shard>`, sorted by last-seen time. The heartbeat is refreshed at most every
 * {@link HEARTBEAT_REFRESH_MS}, not on every breadcrumb, and the big tracking item stays out of
 * the index: re-indexing a 2 KB item on every cycle was most of the write cost of a breadcrumb. The
 * sweep therefore reads a last-seen time up to five minutes old, and checks the real one (on the
 * tracking item) in the condition of its write.
 */
export const trackingKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHTRACK#${vehicleId}`,
});

/** Spreads the online index over partitions; the sweep queries each shard. */
export const ONLINE_INDEX_SHARDS = 16;

export function onlineShardOf(vehicleId: string): number {
  let hash = 0;
  for (const char of vehicleId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % ONLINE_INDEX_SHARDS;
}

export const heartbeatKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHSEEN#${vehicleId}`,
});

/** The heartbeat's last-seen time may lag the real one by this much (well under the 15-minute threshold). */
export const HEARTBEAT_REFRESH_MS = 5 * 60_000;

const onlineIndexKeys = (fleetId: string, vehicleId: string, lastSeenMs: number) => ({
  gsi1pk: `VEHONLINE#${onlineShardOf(vehicleId)}`,
  gsi1sk: `${String(lastSeenMs).padStart(15, '0')}#${fleetId}#${vehicleId}`,
});

export interface SilentVehicle {
  fleetId: string;
  vehicleId: string;
  lastSeenMs: number;
}

export interface VehicleTrackingStore {
  get(fleetId: string, vehicleId: string): Promise<VehicleTracking>;
  /**
   * Writes the item (with its outbox) if nobody moved the version since it was read; false when
   * somebody did: read again and redo the change. Returns the stored version on success.
   */
  save(tracking: VehicleTracking): Promise<VehicleTracking | null>;
  /** Clears a carried-out outbox, unless the item moved on meanwhile (then the next writer owns it). */
  clearOutbox(tracking: VehicleTracking): Promise<void>;
  /** Online vehicles of one index shard whose heartbeat is older than `beforeMs`, oldest first. */
  silentSince(shard: number, beforeMs: number): Promise<SilentVehicle[]>;
  /** Brings the vehicle's heartbeat to its real last-seen time (the sweep found it lagging). */
  refreshHeartbeat(tracking: VehicleTracking): Promise<void>;
  /**
   * Takes the vehicle out of the index, but only while its tracking item is still as read (this
   * version, offline; or absent): a worker cycle that just brought it back online keeps its
   * heartbeat.
   */
  removeHeartbeat(tracking: VehicleTracking): Promise<void>;
}

export function createVehicleTrackingStore(client: DocumentClient, tableName: string): VehicleTrackingStore {
  const putHeartbeat = (fleetId: string, vehicleId: string, lastSeenMs: number) =>
    client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...heartbeatKey(fleetId, vehicleId),
          ...onlineIndexKeys(fleetId, vehicleId, lastSeenMs),
          last_seen_ms: lastSeenMs,
        },
      }),
    );
  const deleteHeartbeat = async (tracking: VehicleTracking) => {
    const exists = tracking.version > 0;
    try {
      await client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              ConditionCheck: {
                TableName: tableName,
                Key: trackingKey(tracking.fleetId, tracking.vehicleId),
                ConditionExpression: exists
                  ? 'version = :version AND #offline = :true'
                  : 'attribute_not_exists(pk)',
                ...(exists
                  ? {
                      // OFFLINE is a DynamoDB reserved word.
                      ExpressionAttributeNames: { '#offline': 'offline' },
                      ExpressionAttributeValues: { ':version': tracking.version, ':true': true },
                    }
                  : {}),
              },
            },
            { Delete: { TableName: tableName, Key: heartbeatKey(tracking.fleetId, tracking.vehicleId) } },
          ],
        }),
      );
    } catch (error) {
      if (!(isConditionFailure(error) || isTransactionConflict(error))) throw error;
    }
  };

  return {
    async get(fleetId, vehicleId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: trackingKey(fleetId, vehicleId), ConsistentRead: true }),
      );
      if (!Item) return emptyTracking(fleetId, vehicleId);
      return {
        fleetId,
        vehicleId,
        tracker: Item.tracker as TrackerState,
        session: (Item.session as GuidanceSession | null) ?? null,
        lastSeenMs:
          Item.last_seen_ms === null || Item.last_seen_ms === undefined ? null : Number(Item.last_seen_ms),
        offline: Item.offline === true,
        indexedSeenMs:
          Item.indexed_seen_ms === null || Item.indexed_seen_ms === undefined
            ? null
            : Number(Item.indexed_seen_ms),
        outbox: (Item.outbox as Outbox | null | undefined) ?? null,
        version: Number(Item.version ?? 0),
      };
    },

    async save(tracking) {
      const online = !tracking.offline && tracking.lastSeenMs !== null;
      const lastSeenMs = tracking.lastSeenMs as number;
      const refresh =
        online &&
        (tracking.indexedSeenMs === null || lastSeenMs - tracking.indexedSeenMs >= HEARTBEAT_REFRESH_MS);
      const indexedSeenMs = refresh ? lastSeenMs : online ? tracking.indexedSeenMs : null;
      // Before the commit: an early heartbeat is harmless (the sweep checks the real time), a
      // missing one would hide a vehicle from the sweep until its next refresh. An offline vehicle
      // with follow-up work gets one too, an old one: the next sweep visits it and carries it out.
      if (refresh) await putHeartbeat(tracking.fleetId, tracking.vehicleId, lastSeenMs);
      else if (tracking.offline && tracking.outbox) {
        await putHeartbeat(tracking.fleetId, tracking.vehicleId, tracking.lastSeenMs ?? 0);
      }
      const stored: VehicleTracking = { ...tracking, indexedSeenMs, version: tracking.version + 1 };
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...trackingKey(tracking.fleetId, tracking.vehicleId),
              tracker: stored.tracker,
              session: stored.session,
              last_seen_ms: stored.lastSeenMs,
              offline: stored.offline,
              indexed_seen_ms: stored.indexedSeenMs,
              outbox: stored.outbox,
              version: stored.version,
            },
            ConditionExpression: tracking.version === 0 ? 'attribute_not_exists(pk)' : 'version = :expected',
            ...(tracking.version === 0
              ? {}
              : { ExpressionAttributeValues: { ':expected': tracking.version } }),
          }),
        );
        return stored;
      } catch (error) {
        if (isConditionFailure(error)) return null;
        throw error;
      }
    },

    async clearOutbox(tracking) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: trackingKey(tracking.fleetId, tracking.vehicleId),
            UpdateExpression: 'SET outbox = :null',
            ConditionExpression: 'version = :version',
            ExpressionAttributeValues: { ':null': null, ':version': tracking.version },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    },

    async refreshHeartbeat(tracking) {
      if (tracking.lastSeenMs !== null)
        await putHeartbeat(tracking.fleetId, tracking.vehicleId, tracking.lastSeenMs);
    },

    removeHeartbeat: deleteHeartbeat,

    async silentSince(shard, beforeMs) {
      const silent: SilentVehicle[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: GSI1,
            KeyConditionExpression: 'gsi1pk = :shard AND gsi1sk < :before',
            ExpressionAttributeValues: {
              ':shard': `VEHONLINE#${shard}`,
              ':before': String(beforeMs).padStart(15, '0'),
            },
            ProjectionExpression: 'gsi1sk',
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) {
          const [seen, fleetId, vehicleId] = String(item.gsi1sk).split('#');
          if (fleetId && vehicleId) silent.push({ fleetId, vehicleId, lastSeenMs: Number(seen) });
        }
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return silent;
    },
  };
}
