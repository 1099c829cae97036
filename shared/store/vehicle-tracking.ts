import { deflateRawSync, inflateRawSync } from 'node:zlib';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { type PendingVerification, withPending } from '../domain/fuelings/verification-recheck.ts';
import type { GuidanceSession } from '../domain/guidance/session.ts';
import { initialTrackerState, type TrackerState } from '../domain/telematics/tracker.ts';
import type { Outbox } from '../domain/tracking/outbox.ts';
import type { ShownStop } from '../domain/tracking/shown-stops.ts';
import { emptyTracking, type VehicleTracking } from '../domain/tracking/vehicle-tracking.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { onlinePartition, onlineShardOf, onlineSortTime, parseOnlineSortKey } from './online-index.ts';
import { GSI1, GSI2 } from './table.ts';
import { isConditionFailure, isTransactionConflict } from './transactions.ts';
import { expectVersion, latestPositionKey } from './vehicle-positions.ts';

/**
 * A vehicle's tracking state lives in one item (`FLEET#…`/`VEHTRACK#veh_…`) so one conditional
 * write commits a guidance cycle.
 *
 * The offline sweep finds silent vehicles through the online index (online-index.ts: gsi2 keys on
 * the latest-position item, which ingest keeps current) and through visit markers: tiny items
 * (`VEHSEEN#veh_…`) in gsi1 under `VEHONLINE#<shard>`, sorted by a last-seen time. A marker is put
 * for an offline vehicle whose committed change left follow-up work (the sweep carries it out);
 * heartbeat items of the layout without the online index (refreshed by the worker every ten
 * minutes) are markers too, and the sweep removes each once its vehicle is offline.
 */
/**
 * The detection state, the session and the outbox travel as one deflated JSON blob (`state`): the
 * worker rewrites the item on every cycle of a guided truck and DynamoDB bills a write by the
 * item's size, and a session with its stops is 1.5–2.5 KB as a map but well under 1 KB deflated
 * (docs/architecture.md). What other readers need stays in plain attributes: `version`, `offline`,
 * `last_seen_ms` (conditions) and `session_status` (the health scorecard's projection). An item
 * holding `tracker`, `session` and `outbox` as maps is read as such.
 */
interface TrackingState {
  tracker: TrackerState;
  session: GuidanceSession | null;
  outbox: Outbox | null;
  shownStops?: ShownStop[];
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
const packState = ({ tracker, session, outbox, shownStops }: TrackingState) =>
  Buffer.concat([
    Buffer.of(PACKED_WITH_V1),
    deflateRawSync(
      Buffer.from(
        JSON.stringify({ tracker, session, outbox, ...(shownStops?.length ? { shownStops } : {}) }),
      ),
      { dictionary: DICTIONARY_V1 },
    ),
  ]);

function unpackState(item: Record<string, unknown>): TrackingState {
  // An item POST /v1/fuelings created (a purchase waiting for the vehicle's first breadcrumbs): no cycle yet.
  if (item.state === undefined && item.tracker === undefined) {
    return { tracker: initialTrackerState(), session: null, outbox: null };
  }
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

/**
 * The pending purchases as a plain attribute (`pending_verifications`), outside the blob: POST
 * /v1/fuelings adds to them without unpacking the worker's state.
 */
const storedPending = (pending: readonly PendingVerification[] | undefined) =>
  (pending ?? []).map((entry) => ({
    fueling_id: entry.fuelingId,
    fueled_at: entry.fueledAt,
    heard: entry.heard,
  }));

const pendingOf = (value: unknown): PendingVerification[] =>
  Array.isArray(value)
    ? value.map((entry: Record<string, unknown>) => ({
        fuelingId: String(entry.fueling_id),
        fueledAt: String(entry.fueled_at),
        heard: entry.heard === true,
      }))
    : [];

/** Attempts of adding a pending purchase while worker cycles keep moving the item. */
const MAX_PENDING_ATTEMPTS = 8;

/** The condition that the tracking item is still at the version it was read at (0: still absent). */
const versionAsRead = (tracking: Pick<VehicleTracking, 'version'>) =>
  tracking.version > 0
    ? {
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':version': tracking.version },
      }
    : { ConditionExpression: 'attribute_not_exists(pk)' };

export const trackingKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHTRACK#${vehicleId}`,
});

export const heartbeatKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHSEEN#${vehicleId}`,
});

const markerIndexKeys = (fleetId: string, vehicleId: string, lastSeenMs: number) => ({
  gsi1pk: onlinePartition(onlineShardOf(vehicleId)),
  gsi1sk: `${onlineSortTime(lastSeenMs)}#${fleetId}#${vehicleId}`,
});

export interface SilentVehicle {
  fleetId: string;
  vehicleId: string;
  /** What the index says (a bucket of the receipt time, or the marker's time): the sweep checks the real one. */
  lastSeenMs: number;
  /** Found through a latest-position item's online keys, or through a visit marker. */
  source: 'position' | 'marker';
}

export interface VehicleTrackingStore {
  /** Strongly consistent unless `consistent: false` (for a reader whose write is conditional on the version). */
  get(fleetId: string, vehicleId: string, options?: { consistent?: boolean }): Promise<VehicleTracking>;
  /**
   * Writes the item (with its outbox) if nobody moved the version since it was read; false when
   * somebody did: read again and redo the change. Returns the stored version on success.
   */
  save(tracking: VehicleTracking): Promise<VehicleTracking | null>;
  /**
   * `save` for the offline sweep: in the same transaction, takes the vehicle's latest-position item
   * out of the online index, provided it is still at ring version `positionVersion` (null: the
   * vehicle has no position item). Null when either moved since read: a breadcrumb came.
   */
  saveOffline(tracking: VehicleTracking, positionVersion: number | null): Promise<VehicleTracking | null>;
  /** Clears a carried-out outbox, unless the item moved on meanwhile (then the next writer owns it). */
  clearOutbox(tracking: VehicleTracking): Promise<void>;
  /**
   * Adds a reported purchase to the vehicle's pending verifications (the newest
   * RECHECK_POLICY.maxPending kept), bumping the version so a worker cycle that read the item
   * before redoes its change from this one; creates the item when the vehicle has none yet.
   */
  addPendingVerification(
    fleetId: string,
    vehicleId: string,
    purchase: Pick<PendingVerification, 'fuelingId' | 'fueledAt'>,
  ): Promise<void>;
  /**
   * Vehicles of one index shard last heard from before `beforeMs` by the online index or a visit
   * marker, oldest first per source. The times are coarse: the sweep checks the real ones.
   */
  silentSince(shard: number, beforeMs: number): Promise<SilentVehicle[]>;
  /**
   * Removes the vehicle's visit marker, but only while its tracking item is still as read (this
   * version, or absent): a change committed meanwhile may need it.
   */
  removeMarker(tracking: VehicleTracking): Promise<void>;
  /**
   * Takes the vehicle's latest-position item out of the online index, but only while the tracking
   * item is as read and the position item at ring version `positionVersion`: a worker cycle that
   * just brought the vehicle online, or a breadcrumb that just came, keeps it in. True when it did.
   */
  leaveOnlineIndex(tracking: VehicleTracking, positionVersion: number): Promise<boolean>;
}

export function createVehicleTrackingStore(client: DocumentClient, tableName: string): VehicleTrackingStore {
  const putMarker = (fleetId: string, vehicleId: string, lastSeenMs: number) =>
    client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...heartbeatKey(fleetId, vehicleId),
          ...markerIndexKeys(fleetId, vehicleId, lastSeenMs),
          last_seen_ms: lastSeenMs,
        },
      }),
    );
  /**
   * The conditional Put committing `tracking` (the version it was read at), and what it stores. An
   * offline vehicle with follow-up work gets a visit marker first (an early one is harmless; a
   * missing one would leave the work undone until the vehicle reports again).
   */
  const commit = async (tracking: VehicleTracking) => {
    if (tracking.offline && tracking.outbox) {
      await putMarker(tracking.fleetId, tracking.vehicleId, tracking.lastSeenMs ?? 0);
    }
    const stored: VehicleTracking = { ...tracking, version: tracking.version + 1 };
    const put = {
      TableName: tableName,
      Item: {
        ...trackingKey(tracking.fleetId, tracking.vehicleId),
        state: packState(stored),
        session_status: stored.session?.status ?? null,
        last_seen_ms: stored.lastSeenMs,
        offline: stored.offline,
        version: stored.version,
        ...(stored.pendingVerifications?.length
          ? { pending_verifications: storedPending(stored.pendingVerifications) }
          : {}),
      },
      ...versionAsRead(tracking),
    };
    return { stored, put };
  };
  /** The position item's removal from the online index, while it is at ring version `positionVersion`. */
  const outOfOnlineIndex = (tracking: VehicleTracking, positionVersion: number) => ({
    TableName: tableName,
    Key: latestPositionKey(tracking.fleetId, tracking.vehicleId),
    UpdateExpression: 'REMOVE gsi2pk, gsi2sk',
    ...expectVersion(positionVersion),
  });
  /** A check that the tracking item is still as read (or still absent). */
  const unchangedSinceRead = (tracking: VehicleTracking) => ({
    TableName: tableName,
    Key: trackingKey(tracking.fleetId, tracking.vehicleId),
    ...versionAsRead(tracking),
  });
  /** A write of another item, done only while the tracking item is as read; false when it was not. */
  const whileUnchanged = async (tracking: VehicleTracking, write: Record<string, unknown>) => {
    try {
      await client.send(
        new TransactWriteCommand({
          TransactItems: [{ ConditionCheck: unchangedSinceRead(tracking) }, write as never],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error) || isTransactionConflict(error)) return false;
      throw error;
    }
  };
  /** One shard of an index's `VEHONLINE#` entries older than `beforeMs`, every page. */
  async function queryOnlineIndex(
    indexName: string,
    prefix: 'gsi1' | 'gsi2',
    shard: number,
    beforeMs: number,
  ) {
    const found: Omit<SilentVehicle, 'source'>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: indexName,
          KeyConditionExpression: `${prefix}pk = :shard AND ${prefix}sk < :before`,
          ExpressionAttributeValues: {
            ':shard': onlinePartition(shard),
            ':before': onlineSortTime(beforeMs),
          },
          ProjectionExpression: `${prefix}sk`,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const parsed = parseOnlineSortKey(String(item[`${prefix}sk`]));
        if (parsed)
          found.push({ fleetId: parsed.fleetId, vehicleId: parsed.vehicleId, lastSeenMs: parsed.atMs });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return found;
  }

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
      const { tracker, session, outbox, shownStops } = unpackState(Item);
      return {
        fleetId,
        vehicleId,
        tracker,
        session,
        shownStops: shownStops ?? [],
        lastSeenMs:
          Item.last_seen_ms === null || Item.last_seen_ms === undefined ? null : Number(Item.last_seen_ms),
        offline: Item.offline === true,
        outbox,
        // Absent when none wait, as `save` stores it.
        ...(Item.pending_verifications
          ? { pendingVerifications: pendingOf(Item.pending_verifications) }
          : {}),
        version: Number(Item.version ?? 0),
      };
    },

    async addPendingVerification(fleetId, vehicleId, purchase) {
      const key = trackingKey(fleetId, vehicleId);
      for (let attempt = 1; ; attempt++) {
        const { Item } = await client.send(
          new GetCommand({
            TableName: tableName,
            Key: key,
            ProjectionExpression: 'version, pending_verifications',
            ConsistentRead: true,
          }),
        );
        const pending = storedPending(withPending(pendingOf(Item?.pending_verifications), purchase));
        const version = Item ? Number(Item.version ?? 0) : 0;
        try {
          await (Item
            ? client.send(
                new UpdateCommand({
                  TableName: tableName,
                  Key: key,
                  UpdateExpression: 'SET pending_verifications = :pending, version = :next',
                  ConditionExpression: 'version = :version',
                  ExpressionAttributeValues: {
                    ':pending': pending,
                    ':next': version + 1,
                    ':version': version,
                  },
                }),
              )
            : client.send(
                new PutCommand({
                  TableName: tableName,
                  // No state: the vehicle's first cycle starts from an empty tracker (unpackState).
                  Item: {
                    ...key,
                    pending_verifications: pending,
                    last_seen_ms: null,
                    offline: false,
                    session_status: null,
                    version: 1,
                  },
                  ConditionExpression: 'attribute_not_exists(pk)',
                }),
              ));
          return;
        } catch (error) {
          if (!isConditionFailure(error) || attempt >= MAX_PENDING_ATTEMPTS) throw error;
        }
      }
    },

    async save(tracking) {
      const { stored, put } = await commit(tracking);
      try {
        await client.send(new PutCommand(put));
        return stored;
      } catch (error) {
        if (isConditionFailure(error)) return null;
        throw error;
      }
    },

    async saveOffline(tracking, positionVersion) {
      if (positionVersion === null) return this.save(tracking);
      const { stored, put } = await commit(tracking);
      try {
        await client.send(
          new TransactWriteCommand({
            TransactItems: [{ Put: put }, { Update: outOfOnlineIndex(tracking, positionVersion) }],
          }),
        );
        return stored;
      } catch (error) {
        if (isConditionFailure(error) || isTransactionConflict(error)) return null;
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
              ':state': packState({ ...tracking, outbox: null }),
              ':status': tracking.session?.status ?? null,
              ':version': tracking.version,
            },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    },

    async removeMarker(tracking) {
      await whileUnchanged(tracking, {
        Delete: { TableName: tableName, Key: heartbeatKey(tracking.fleetId, tracking.vehicleId) },
      });
    },

    leaveOnlineIndex(tracking, positionVersion) {
      return whileUnchanged(tracking, { Update: outOfOnlineIndex(tracking, positionVersion) });
    },

    async silentSince(shard, beforeMs) {
      const [positions, markers] = await Promise.all([
        queryOnlineIndex(GSI2, 'gsi2', shard, beforeMs),
        queryOnlineIndex(GSI1, 'gsi1', shard, beforeMs),
      ]);
      return [
        ...positions.map((found) => ({ ...found, source: 'position' as const })),
        ...markers.map((found) => ({ ...found, source: 'marker' as const })),
      ];
    },
  };
}
