import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { GuidanceSession } from '../domain/guidance/session.ts';
import { initialTrackerState, type TrackerState } from '../domain/telematics/tracker.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { GSI1, ttlEpochSeconds } from './table.ts';
import { isConditionFailure } from './transactions.ts';

/**
 * Everything the guidance worker keeps per vehicle, in one item (`FLEET#…`/`VEHTRACK#veh_…`) so one
 * conditional write commits a cycle: the detection state, the active guidance session, and when
 * the vehicle was last heard from.
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

export interface VehicleTracking {
  fleetId: string;
  vehicleId: string;
  tracker: TrackerState;
  session: GuidanceSession | null;
  /** Receipt time of the newest breadcrumb the worker saw; null before the first. */
  lastSeenMs: number | null;
  offline: boolean;
  /** The last-seen time the heartbeat item carries; null when there is none (offline, or never seen). */
  indexedSeenMs: number | null;
  /** Optimistic lock: every write expects the version it read. */
  version: number;
}

export function emptyTracking(fleetId: string, vehicleId: string): VehicleTracking {
  return {
    fleetId,
    vehicleId,
    tracker: initialTrackerState(),
    session: null,
    lastSeenMs: null,
    offline: false,
    indexedSeenMs: null,
    version: 0,
  };
}

export interface SilentVehicle {
  fleetId: string;
  vehicleId: string;
  lastSeenMs: number;
}

export interface VehicleTrackingStore {
  get(fleetId: string, vehicleId: string): Promise<VehicleTracking>;
  /** False when another writer moved the version first: read again and redo the cycle. */
  save(tracking: VehicleTracking): Promise<boolean>;
  /** Online vehicles of one index shard whose heartbeat is older than `beforeMs`, oldest first. */
  silentSince(shard: number, beforeMs: number): Promise<SilentVehicle[]>;
  /**
   * Marks the vehicle offline if it really was last seen before `cutoffMs` and is online; returns
   * its real last-seen time, or null when it reported since (its heartbeat is then brought up to
   * date) or is already offline or gone (its heartbeat is removed).
   */
  markOffline(vehicle: SilentVehicle, cutoffMs: number, nowMs: number): Promise<number | null>;
  /** Keeps an ended session (superseded, cancelled, arrived) under its own id, for reports. */
  archive(fleetId: string, session: GuidanceSession): Promise<void>;
}

/** Ended sessions are kept for reports (adherence) this long. */
export const ENDED_SESSION_RETENTION_DAYS = 90;

export const endedSessionKey = (fleetId: string, sessionId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `GUIDANCE#${sessionId}`,
});

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
  /** Only a heartbeat that is still old: one a racing cycle just rewrote stays. */
  const deleteHeartbeat = async (vehicle: SilentVehicle, cutoffMs: number) => {
    try {
      await client.send(
        new DeleteCommand({
          TableName: tableName,
          Key: heartbeatKey(vehicle.fleetId, vehicle.vehicleId),
          ConditionExpression: 'attribute_not_exists(pk) OR last_seen_ms < :cutoff',
          ExpressionAttributeValues: { ':cutoff': cutoffMs },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
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
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...trackingKey(tracking.fleetId, tracking.vehicleId),
              tracker: tracking.tracker,
              session: tracking.session,
              last_seen_ms: tracking.lastSeenMs,
              offline: tracking.offline,
              indexed_seen_ms: indexedSeenMs,
              version: tracking.version + 1,
            },
            ConditionExpression: tracking.version === 0 ? 'attribute_not_exists(pk)' : 'version = :expected',
            ...(tracking.version === 0
              ? {}
              : { ExpressionAttributeValues: { ':expected': tracking.version } }),
          }),
        );
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
      // After the commit: a heartbeat lost to a crash here is rewritten by a later cycle (its
      // indexed time ages past the refresh interval), and the sweep never trusts it alone.
      if (refresh) await putHeartbeat(tracking.fleetId, tracking.vehicleId, lastSeenMs);
      return true;
    },

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

    async markOffline(vehicle, cutoffMs, nowMs) {
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: trackingKey(vehicle.fleetId, vehicle.vehicleId),
            UpdateExpression:
              'SET #offline = :true, offline_since_ms = :now, indexed_seen_ms = :null, version = version + :one',
            ConditionExpression: 'last_seen_ms < :cutoff AND #offline = :false',
            // OFFLINE is a DynamoDB reserved word.
            ExpressionAttributeNames: { '#offline': 'offline' },
            ExpressionAttributeValues: {
              ':true': true,
              ':false': false,
              ':null': null,
              ':now': nowMs,
              ':one': 1,
              ':cutoff': cutoffMs,
            },
            ReturnValues: 'ALL_OLD',
          }),
        );
        await deleteHeartbeat(vehicle, cutoffMs);
        return Number(Attributes?.last_seen_ms);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      // Not silent after all (the heartbeat lags), already offline, or gone: set the index right.
      const current = await this.get(vehicle.fleetId, vehicle.vehicleId);
      if (current.version > 0 && !current.offline && current.lastSeenMs !== null) {
        await putHeartbeat(vehicle.fleetId, vehicle.vehicleId, current.lastSeenMs);
      } else {
        await deleteHeartbeat(vehicle, cutoffMs);
      }
      return null;
    },

    async archive(fleetId, session) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...endedSessionKey(fleetId, session.id),
            session,
            expires_at: ttlEpochSeconds(
              (session.endedAtMs ?? session.updatedAtMs) + ENDED_SESSION_RETENTION_DAYS * 86_400_000,
            ),
          },
        }),
      );
    },
  };
}
