import { deflateRawSync, inflateRawSync } from 'node:zlib';
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
 * sweep therefore reads a last-seen time up to ten minutes old, and checks the real one (on the
 * tracking item) in the condition of its write.
 */
/**
 * The detection state, the session and the outbox travel as one deflated JSON blob (`state`): the
 * worker rewrites the item on every cycle and DynamoDB bills a write by the item's size, and a
 * session with its stops is 1.5–2.5 KB as a map but well under 1 KB deflated (docs/table-design.md).
 * What other readers need stays in plain attributes: `version`, `offline`, `last_seen_ms`,
 * `indexed_seen_ms` (conditions) and `session_status` (the health scorecard's projection). Items
 * written before hold `tracker`, `session` and `outbox` as maps; they are read as such.
 */
interface TrackingState {
  tracker: TrackerState;
  session: GuidanceSession | null;
  outbox: Outbox | null;
}

/**
 * A preset dictionary (zlib's): the field names and phrases every state repeats, so that a 2 KB
 * state deflates to about half of what it would alone. Stored blobs name the dictionary they were
 * packed with in their first byte; a new dictionary takes a new number and this one stays readable.
 */
const DICTIONARY_V1 = Buffer.from(
  [
    '"tracker":{"version":1,"processedThroughMs":"lastFix":{"recordedAtMs":"latitude":"longitude":',
    '"fuelLevelPercent":"speedKmh":"recentLevels":[{"atMs":"percent":"lastReport":{"percent":',
    '"greatCircleMilesSince":"fuelLowArmed":true,"episode":null,"visit":null,"startedAtMs":',
    '"lastStationaryAtMs":"levelBeforePercent":"stationaryLevels":"fuelingReported":false,',
    '"phase":"settling","arrived","sinceMs":"arrivedAtMs":"stop":{"stopId":',
    '"session":{"billingAccountId":"cmp_of_flt_","id":"gd_","vehicleId":"veh_","tripId":null,"tripStops":',
    '"status":"active","endReason":null,"phase":"stop_recommended","destination":{"latitude":',
    '"name":"minArrivalFuelPercent":20,"stops":[{"id":"gds_","stationId":"stn_","chain":"Independent",',
    '"address":"milesAhead":"detourMiles":"gallonsToBuy":"price":"discount":0,"netPrice":',
    '"priceIsStale":false,"reason":"Cheapest diesel in the next miles: $ net (no fleet discount), ',
    ' miles off the route. Buy gal to reach with 20% in the tank.","recommendedAtMs":',
    '"acknowledgedAtMs":null,"tripStopId":null}],"skipped":[],"announced":[{"stationId":"stn_',
    '"approachedStopIds":[],"planReason":"1 stop, gal for $; arrives at with % in the tank.",',
    '"remainingMiles":"projectedArrivalFuelPercent":"fuel":{"percent":"source":"reported",',
    '"reportedAtMs":"position":{"latitude":"forceReplan":false,"revision":"createdAtMs":',
    '"updatedAtMs":"planUpdatedAtMs":"endedAtMs":null},"outbox":null,',
    '"outbox":{"events":[{"type":"guidance.updated","dedupeKey":"data":{"vehicle_id":"veh_',
    '"guidance_id":"gd_","change":"created","stop_ids":["gds_"]}}],"fuelings":[],"archive":[],',
    '"recommendations":[{"kind":"recommended","stop":{"guidanceId":"stationName":"withdrawnAtMs":null,',
    '"due":false,"followedFuelingId":null}}]}',
  ].join(''),
);
const PACKED_WITH_V1 = 1;

/** Only what belongs in the blob: the caller's object may carry the plain attributes too. */
const packState = ({ tracker, session, outbox }: TrackingState) =>
  Buffer.concat([
    Buffer.of(PACKED_WITH_V1),
    deflateRawSync(Buffer.from(JSON.stringify({ tracker, session, outbox })), { dictionary: DICTIONARY_V1 }),
  ]);

function unpackState(item: Record<string, unknown>): TrackingState {
  if (item.state instanceof Uint8Array) {
    const blob = Buffer.from(item.state);
    if (blob[0] !== PACKED_WITH_V1)
      throw new Error(`tracking state packed with unknown dictionary ${blob[0]}`);
    return JSON.parse(inflateRawSync(blob.subarray(1), { dictionary: DICTIONARY_V1 }).toString('utf8'));
  }
  return {
    tracker: item.tracker as TrackerState,
    session: (item.session as GuidanceSession | null) ?? null,
    outbox: (item.outbox as Outbox | null | undefined) ?? null,
  };
}

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

/**
 * The heartbeat's last-seen time may lag the real one by this much. Under the 15-minute offline
 * threshold by more than a reporting interval, a reporting vehicle is never a sweep candidate; one
 * silent for 5 minutes may be, and the sweep's check on the real time (then a refresh) sorts it out.
 * Each refresh costs three write units (the item, and the index entry moved), so it is as rare as
 * that allows.
 */
export const HEARTBEAT_REFRESH_MS = 10 * 60_000;

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
  /** Strongly consistent unless `consistent: false` (for a reader whose write is conditional on the version). */
  get(fleetId: string, vehicleId: string, options?: { consistent?: boolean }): Promise<VehicleTracking>;
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
    async get(fleetId, vehicleId, options) {
      const { Item } = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: trackingKey(fleetId, vehicleId),
          ConsistentRead: options?.consistent ?? true,
        }),
      );
      if (!Item) return emptyTracking(fleetId, vehicleId);
      const { tracker, session, outbox } = unpackState(Item);
      return {
        fleetId,
        vehicleId,
        tracker,
        session,
        lastSeenMs:
          Item.last_seen_ms === null || Item.last_seen_ms === undefined ? null : Number(Item.last_seen_ms),
        offline: Item.offline === true,
        indexedSeenMs:
          Item.indexed_seen_ms === null || Item.indexed_seen_ms === undefined
            ? null
            : Number(Item.indexed_seen_ms),
        outbox,
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
              state: packState(stored),
              session_status: stored.session?.status ?? null,
              last_seen_ms: stored.lastSeenMs,
              offline: stored.offline,
              indexed_seen_ms: stored.indexedSeenMs,
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
            // The outbox is inside the blob: the state without it (and any pre-blob attributes gone).
            UpdateExpression:
              'SET #state = :state, session_status = :status REMOVE tracker, #session, outbox',
            ConditionExpression: 'version = :version',
            ExpressionAttributeNames: { '#state': 'state', '#session': 'session' },
            ExpressionAttributeValues: {
              ':state': packState({ tracker: tracking.tracker, session: tracking.session, outbox: null }),
              ':status': tracking.session?.status ?? null,
              ':version': tracking.version,
            },
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
