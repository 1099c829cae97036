import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { GuidanceSession } from '../domain/guidance/session.ts';
import { initialTrackerState, type TrackerState } from '../domain/telematics/tracker.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { GSI1, ttlEpochSeconds } from './table.ts';
import { isConditionFailure } from './transactions.ts';

/**
 * Everything the guidance worker keeps per vehicle, in one item (`FLEET#…`/`VEHTRACK#veh_…`) so one
 * conditional write commits a cycle: the detection state, the active guidance session, and when
 * the vehicle was last heard from. While the vehicle is online the item sits in a sparse index
 * (gsi1 `VEHONLINE#<shard>`, sorted by last-seen time), so the offline sweep finds the silent ones
 * with a few range queries instead of a table scan; marking it offline takes it out of the index.
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
  /** Online vehicles of one index shard last seen before `beforeMs`, oldest first. */
  silentSince(shard: number, beforeMs: number): Promise<SilentVehicle[]>;
  /** False when a breadcrumb arrived meanwhile (last seen moved) or it is already offline. */
  markOffline(vehicle: SilentVehicle, nowMs: number): Promise<boolean>;
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
        version: Number(Item.version ?? 0),
      };
    },

    async save(tracking) {
      const online = !tracking.offline && tracking.lastSeenMs !== null;
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...trackingKey(tracking.fleetId, tracking.vehicleId),
              ...(online
                ? onlineIndexKeys(tracking.fleetId, tracking.vehicleId, tracking.lastSeenMs as number)
                : {}),
              tracker: tracking.tracker,
              session: tracking.session,
              last_seen_ms: tracking.lastSeenMs,
              offline: tracking.offline,
              version: tracking.version + 1,
            },
            ConditionExpression: tracking.version === 0 ? 'attribute_not_exists(pk)' : 'version = :expected',
            ...(tracking.version === 0
              ? {}
              : { ExpressionAttributeValues: { ':expected': tracking.version } }),
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
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

    async markOffline(vehicle, nowMs) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: trackingKey(vehicle.fleetId, vehicle.vehicleId),
            UpdateExpression:
              'SET #offline = :true, offline_since_ms = :now, version = version + :one REMOVE gsi1pk, gsi1sk',
            ConditionExpression: 'last_seen_ms = :seen AND #offline = :false',
            // OFFLINE is a DynamoDB reserved word.
            ExpressionAttributeNames: { '#offline': 'offline' },
            ExpressionAttributeValues: {
              ':true': true,
              ':false': false,
              ':now': nowMs,
              ':one': 1,
              ':seen': vehicle.lastSeenMs,
            },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
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
