import { setTimeout as sleep } from 'node:timers/promises';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { travelHeading } from '../domain/telematics/heading.ts';
import type {
  HistoryPoint,
  LatestPosition,
  PositionFix,
  RecentPositions,
} from '../domain/telematics/positions.ts';
import { formatTimestamp } from '../platform/time.ts';
import { batchGetItems } from './batch-get.ts';
import { packTuples, tuplesOf } from './breadcrumb-packing.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { positionOnlineKeys } from './online-index.ts';
import {
  chunksOf,
  flushIfFull,
  type HistoryTuple,
  mergeIntoRing,
  slicesForOneWrite,
  toTuple,
} from './position-ring.ts';
import { ttlEpochSeconds } from './table.ts';
import { isConditionFailure, isTransactionConflict } from './transactions.ts';

/**
 * A vehicle's latest position (`FLEET#…`/`VEHPOS#veh_…`), written with a condition so it only
 * moves forward in time: a late, older breadcrumb never overwrites a newer one.
 *
 * History: per vehicle and UTC hour, a run of items of at most {@link MAX_HISTORY_POINTS_PER_ITEM}
 * `[ms, lat, lon, fuel, km/h]` tuples each, packed into one binary `points` attribute
 * (breadcrumb-packing.ts; an item holding a list of number lists, the list layout, is read alike).
 * The hour's first item is `VEHHIST#veh_…#2026-11-21T22`, its continuations
 * `VEHHIST#veh_…#2026-11-21T22#0001`, `#0002`, … (they sort right after it and before the next
 * hour), so a truck reporting every minute still
 * costs one item an hour, and one reporting every 200 ms a few dozen instead of an item DynamoDB
 * refuses (400 KB). A breadcrumb (vehicle, recorded ms) is stored once: appending reads the hour's
 * items first and writes only the times not stored yet, in one all-or-nothing write (a transaction
 * when it touches more than one item) conditional on the last item being unchanged since
 * (`size(points)` and its type) and the new items not existing, so two writers racing re-read
 * instead of both appending.
 */
export const latestPositionKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHPOS#${vehicleId}`,
});
/** The first history item of the UTC hour of `recordedAtMs`. */
export const historyBucketKey = (fleetId: string, vehicleId: string, recordedAtMs: number) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHHIST#${vehicleId}#${new Date(recordedAtMs).toISOString().slice(0, 13)}`,
});
/**
 * A chunk the ring flushed: immutable, keyed by the hour and its first breadcrumb's time
 * (`…#2026-11-21T22#m1763762400000`). `m` sorts after the continuations' digits and before `~`,
 * so the hour's range reads it with them.
 */
export const historyChunkKey = (fleetId: string, vehicleId: string, hourMs: number, firstMs: number) => {
  const first = historyBucketKey(fleetId, vehicleId, hourMs);
  return { ...first, sk: `${first.sk}#m${firstMs}` };
};

/** The hour's item number `sequence` (0 is the first, {@link historyBucketKey}). */
export const historyItemKey = (fleetId: string, vehicleId: string, hourMs: number, sequence: number) => {
  const first = historyBucketKey(fleetId, vehicleId, hourMs);
  return sequence === 0 ? first : { ...first, sk: `${first.sk}#${String(sequence).padStart(4, '0')}` };
};

/**
 * The bound of one history item. A packed breadcrumb takes at most 46 bytes (a few bytes usually;
 * a tuple in the list layout ≤ 113), so a full item stays under 28 KB — far from
 * the 400 KB limit, and small enough that appending to it stays cheap in write units. 240 is one
 * breadcrumb every 15 s for an hour.
 */
export const MAX_HISTORY_POINTS_PER_ITEM = 240;
/** Continuations per hour are numbered with 4 digits: 10,000 items × 240 breadcrumbs an hour at most. */
export const MAX_HISTORY_ITEMS_PER_HOUR = 10_000;
/**
 * New items one append attempt may put: with the update of the last item, the attempt stays within
 * a transaction's 100 actions (and, at < 28 KB an item, far within its 4 MB). Larger appends are
 * done in successive slices, each all-or-nothing.
 */
const MAX_NEW_ITEMS_PER_WRITE = 98;
/** Re-reads when another writer changed the hour's items under us; then the write fails (retryable). */
const MAX_APPEND_ATTEMPTS = 8;
const HOUR_MS = 3_600_000;

/**
 * Some breadcrumbs could not be stored (the others were). `failed` lists them all; `hourFull` those
 * of them refused because their hour already holds the most breadcrumbs an hour can (a retry cannot
 * store them); the rest failed for a transient reason and can be retried.
 */
export class HistoryWriteError extends Error {
  readonly failed: readonly PositionFix[];
  readonly hourFull: readonly PositionFix[];
  constructor(failed: readonly PositionFix[], cause: unknown, hourFull: readonly PositionFix[] = []) {
    super(`${failed.length} breadcrumbs could not be stored in history`, { cause });
    this.name = 'HistoryWriteError';
    this.failed = failed;
    this.hourFull = hourFull;
  }
}

/** The hour already holds the most breadcrumbs it can: `overflow` were not stored (the rest were). */
class HourFullError extends Error {
  readonly overflow: readonly PositionFix[];
  constructor(message: string, overflow: readonly PositionFix[]) {
    super(message);
    this.name = 'HourFullError';
    this.overflow = overflow;
  }
}

/** Breadcrumb history is kept this long (DynamoDB TTL on each hourly bucket). */
export const POSITION_HISTORY_RETENTION_DAYS = 90;

export type { RecentPositions };

/** What {@link VehiclePositionStore.record} could not store; everything else it stored. */
export interface RecordOutcome {
  /** Not stored for a transient reason: the client may resend them. */
  retry: PositionFix[];
  /** Refused because their hour of history is full: a resend cannot store them. */
  hourFull: PositionFix[];
  /** Why something was not stored, for the log. */
  cause?: unknown;
  /** The item this call wrote last, as `recent` would read it; absent when it wrote none (all already stored, or failed). */
  written?: RecentPositions;
  /**
   * The recorded time of the vehicle's latest position just before this call's first write (null:
   * it had none), absent when the call moved no position: where the breadcrumbs of this call take
   * over from the previous request's, for the cadence counters of integration health.
   */
  previousLatestAtMs?: number | null;
}

/** A vehicle's position item as a batch read found it (eventually consistent; null: none), for `record` to start from. */
export interface PrefetchedPosition {
  readonly item: Readonly<Record<string, unknown>> | null;
}

export interface VehiclePositionStore {
  /**
   * The position items of several vehicles in one batch read (100 a call, eventually consistent):
   * what `record` would otherwise read first, one call per vehicle. Throws when the read fails.
   */
  prefetch(fleetId: string, vehicleIds: readonly string[]): Promise<Map<string, PrefetchedPosition>>;
  latest(fleetId: string, vehicleId: string): Promise<LatestPosition | null>;
  /**
   * The latest position and the breadcrumbs not yet flushed to history. With `atLeastVersion`
   * (what the request being processed wrote), an eventually consistent read that is read again
   * consistently only when it returns an older version; without, one consistent read.
   */
  recent(fleetId: string, vehicleId: string, atLeastVersion?: number): Promise<RecentPositions | null>;
  /**
   * Stores a request's breadcrumbs of one vehicle, each once (by recorded time), and moves the
   * latest position forward to the newest: those newer than what history holds go into the item's
   * ring with the position, in one conditional write; older ones (late) are appended to history
   * first, and when one of them fails for a transient reason the newer ones are not stored either,
   * so the position never passes a breadcrumb the client still has to resend. With `prefetched`
   * (from {@link VehiclePositionStore.prefetch}), the first attempt starts from that item instead
   * of reading it: like its own eventually consistent read, a stale one fails the write's
   * condition, and the next attempt reads consistently.
   */
  record(
    fleetId: string,
    vehicleId: string,
    fixes: readonly PositionFix[],
    prefetched?: PrefetchedPosition,
  ): Promise<RecordOutcome>;
  /**
   * Puts the vehicle back in the online index (online-index.ts) at `receivedAtMs`, unless its item
   * is gone or already there: for a vehicle the offline sweep took out while the worker was behind
   * (the worker's cycle that brings it online calls it).
   */
  rejoinOnlineIndex(fleetId: string, vehicleId: string, receivedAtMs: number): Promise<void>;
  /**
   * Moves only the position (it neither touches the ring nor bumps `rv`), making an item without a
   * ring: for tests and tools that make such an item; ingest uses `record`. True when this fix
   * became the latest; false when a newer one was already stored.
   */
  recordLatest(fleetId: string, vehicleId: string, fix: PositionFix): Promise<boolean>;
  /**
   * Stores each breadcrumb not stored yet (by recorded time), once. Throws {@link HistoryWriteError}
   * naming the breadcrumbs not stored when only some hours could be written.
   */
  appendHistory(fleetId: string, vehicleId: string, fixes: readonly PositionFix[]): Promise<void>;
  /**
   * Breadcrumbs recorded after `afterMs` (at most {@link REPLAY_LOOKBACK_DAYS} days back; all of
   * the last {@link HISTORY_LOOKBACK_HOURS} hours when null) up to `untilMs`, oldest first: what
   * the guidance worker has not consumed yet.
   */
  historySince(
    fleetId: string,
    vehicleId: string,
    afterMs: number | null,
    untilMs: number,
    /** The position item as `recent` read it just before (saves reading it again). */
    snapshot?: RecentPositions,
  ): Promise<HistoryPoint[]>;
}

/** The worker reads at most this much history in one cycle (a vehicle back after a long silence). */
export const HISTORY_LOOKBACK_HOURS = 6;
/**
 * A worker that has consumed breadcrumbs before replays from there, at most this far back: a
 * vehicle without guidance may leave its last few breadcrumbs unstored (a quiet cycle) and then
 * fall silent for a weekend; those breadcrumbs (a fill that had not levelled off yet) must still be
 * replayed when it reports again. The silent hours in between cost nothing to query.
 */
export const REPLAY_LOOKBACK_DAYS = 7;

const orNull = (value: unknown) => (value === undefined || value === null ? null : Number(value));

export interface VehiclePositionStoreOptions {
  /** Items an hour may have ({@link MAX_HISTORY_ITEMS_PER_HOUR}); lowered by tests only. */
  maxItemsPerHour?: number;
}

/** The latest position's read: all that trips, routes and GET …/location need of the store. */
export type LatestPositionReader = Pick<VehiclePositionStore, 'latest'>;

/**
 * The latest-position read alone: a function that needs nothing else bundles none of the ring,
 * the breadcrumb packing or the history writes (docs/cold-starts.md).
 */
export function createLatestPositionReader(client: DocumentClient, tableName: string): LatestPositionReader {
  return {
    async latest(fleetId, vehicleId) {
      // Strongly consistent: the worker bounds its history read by it, right after ingest wrote it.
      const item = await readPositionItem(client, tableName, fleetId, vehicleId, true);
      return item ? latestOf(item) : null;
    },
  };
}

export function createVehiclePositionStore(
  client: DocumentClient,
  tableName: string,
  options: VehiclePositionStoreOptions = {},
): VehiclePositionStore {
  const maxItemsPerHour = options.maxItemsPerHour ?? MAX_HISTORY_ITEMS_PER_HOUR;
  /** One slice of a request's breadcrumbs (see `record`): one conditional write, retried on a lost race. */
  async function recordSlice(
    fleetId: string,
    vehicleId: string,
    fixes: readonly PositionFix[],
    prefetched: PrefetchedPosition | undefined,
  ): Promise<RecordOutcome> {
    const outcome: RecordOutcome = { retry: [], hourFull: [] };
    let pending = [...fixes];
    for (let attempt = 1; pending.length > 0; attempt++) {
      // Eventually consistent first: the write's condition catches a stale read (then read again,
      // consistently). Not when some breadcrumbs would be judged late by it: a stale item (one a
      // sandbox reset just deleted) would send them to history without moving the position.
      let item =
        attempt === 1 && prefetched
          ? prefetched.item
          : await readPositionItem(client, tableName, fleetId, vehicleId, attempt > 1);
      let { ring, flushedThroughMs } = item ? ringOf(item) : { ring: [], flushedThroughMs: null };
      if (
        attempt === 1 &&
        item &&
        pending.some((fix) => fix.recordedAtMs <= (flushedThroughMs ?? -Infinity))
      ) {
        item = await readPositionItem(client, tableName, fleetId, vehicleId, true);
        ({ ring, flushedThroughMs } = item ? ringOf(item) : { ring: [], flushedThroughMs: null });
      }
      const late = pending.filter((fix) => flushedThroughMs !== null && fix.recordedAtMs <= flushedThroughMs);
      const fresh = pending.filter((fix) => !late.includes(fix));
      if (late.length > 0) {
        try {
          await store.appendHistory(fleetId, vehicleId, late);
        } catch (error) {
          const notStored = error instanceof HistoryWriteError ? error.failed : late;
          const full = new Set(error instanceof HistoryWriteError ? error.hourFull : []);
          outcome.hourFull.push(...notStored.filter((fix) => full.has(fix)));
          const retry = notStored.filter((fix) => !full.has(fix));
          outcome.cause = error;
          if (retry.length > 0) {
            // The latest position must not pass a breadcrumb the client will resend.
            outcome.retry.push(...retry, ...fresh);
            return outcome;
          }
        }
      }
      pending = fresh;
      if (fresh.length === 0) return outcome;
      const merged = mergeIntoRing(ring, fresh);
      if (merged.added.length === 0) return outcome;
      const current = item ? latestOf(item) : null;
      const newest = merged.added.reduce((a, b) => (b.recordedAtMs > a.recordedAtMs ? b : a));
      const latestFix = current && current.recordedAtMs >= newest.recordedAtMs ? current : newest;
      const next: Record<string, unknown> = {
        ...latestPositionKey(fleetId, vehicleId),
        ...latestAttributes(latestFix),
        ...positionOnlineKeys(fleetId, vehicleId, latestFix.receivedAtMs),
        rv: Number(item?.rv ?? 0) + 1,
        // Sized with the item (a time of the same size until a flush sets it).
        flushed_through_ms: flushedThroughMs ?? latestFix.recordedAtMs,
      };
      const { ring: kept, flushed } = flushIfFull(next, merged.ring, merged.added.length);
      const flushedThrough = flushed.length > 0 ? Number(flushed.at(-1)?.[0]) : flushedThroughMs;
      try {
        // A flush writes its chunks and the emptied ring together or not at all: a request that
        // loses the race (or dies) never leaves a chunk behind whose breadcrumbs the ring keeps.
        await writeAllOrNothing(client, [
          ...chunkPuts(tableName, fleetId, vehicleId, flushed),
          {
            Put: {
              TableName: tableName,
              Item: { ...next, ring: packTuples(kept), flushed_through_ms: flushedThrough },
              ...expectUnchanged(item),
            },
          },
        ]);
        outcome.written = {
          latest: latestOf(next),
          recent: kept.map(pointOf),
          flushedThroughMs: flushedThrough,
          version: Number(next.rv),
        };
        outcome.previousLatestAtMs = current?.recordedAtMs ?? null;
        return outcome;
      } catch (error) {
        const lostRace = isConditionFailure(error) || isTransactionConflict(error);
        if (!lostRace || attempt >= MAX_APPEND_ATTEMPTS) {
          outcome.retry.push(...fresh);
          outcome.cause = error;
          return outcome;
        }
        // Another request for this vehicle got there first: read again and merge into its ring.
        await sleep(Math.random() * 20 * attempt);
      }
    }
    return outcome;
  }

  const store: VehiclePositionStore = {
    ...createLatestPositionReader(client, tableName),

    async recent(fleetId, vehicleId, atLeastVersion) {
      let item =
        atLeastVersion === undefined
          ? null
          : await readPositionItem(client, tableName, fleetId, vehicleId, false);
      if (!item || Number(item.rv ?? 0) < (atLeastVersion ?? 0)) {
        item = await readPositionItem(client, tableName, fleetId, vehicleId, true);
      }
      if (!item) return null;
      const { ring, flushedThroughMs } = ringOf(item);
      return {
        latest: latestOf(item),
        recent: ring.map(pointOf),
        flushedThroughMs,
        version: Number(item.rv ?? 0),
      };
    },

    async prefetch(fleetId, vehicleIds) {
      const ids = [...new Set(vehicleIds)];
      const items = await batchGetItems(
        client,
        tableName,
        ids.map((id) => latestPositionKey(fleetId, id)),
        { what: 'position items' },
      );
      const found = new Map(items.map((item) => [String(item.sk), item]));
      return new Map(ids.map((id) => [id, { item: found.get(latestPositionKey(fleetId, id).sk) ?? null }]));
    },

    async record(fleetId, vehicleId, fixes, prefetched) {
      // Oldest first, in slices whose flush fits one transaction; a slice that fails stops the rest,
      // so the position never passes a breadcrumb the client has to resend.
      const outcome: RecordOutcome = { retry: [], hourFull: [] };
      const slices = slicesForOneWrite(fixes);
      for (const [index, slice] of slices.entries()) {
        // The prefetched item is what the first slice starts from; the next ones follow its write.
        const done = await recordSlice(fleetId, vehicleId, slice, index === 0 ? prefetched : undefined);
        outcome.hourFull.push(...done.hourFull);
        outcome.retry.push(...done.retry);
        outcome.cause ??= done.cause;
        if (done.written !== undefined) outcome.written = done.written;
        // The first slice that moved the position took over from the previous request's breadcrumbs.
        if (outcome.previousLatestAtMs === undefined && done.previousLatestAtMs !== undefined) {
          outcome.previousLatestAtMs = done.previousLatestAtMs;
        }
        if (done.retry.length > 0) {
          outcome.retry.push(...slices.slice(index + 1).flat());
          break;
        }
      }
      return outcome;
    },

    async rejoinOnlineIndex(fleetId, vehicleId, receivedAtMs) {
      const keys = positionOnlineKeys(fleetId, vehicleId, receivedAtMs);
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: latestPositionKey(fleetId, vehicleId),
            UpdateExpression: 'SET gsi2pk = :pk, gsi2sk = :sk',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(gsi2pk)',
            ExpressionAttributeValues: { ':pk': keys.gsi2pk, ':sk': keys.gsi2sk },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    },

    async recordLatest(fleetId, vehicleId, fix) {
      const attributes = latestAttributes(fix);
      const names = Object.keys(attributes);
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: latestPositionKey(fleetId, vehicleId),
            UpdateExpression: `SET ${names.map((name) => `${name} = :${name}`).join(', ')}`,
            ConditionExpression: 'attribute_not_exists(recorded_at_ms) OR recorded_at_ms < :recorded_at_ms',
            ExpressionAttributeValues: Object.fromEntries(
              names.map((name) => [`:${name}`, attributes[name]]),
            ),
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    async appendHistory(fleetId, vehicleId, fixes) {
      // One hour at a time: its items are read, the new breadcrumbs appended; hours are independent.
      const hours = new Map<number, PositionFix[]>();
      for (const fix of fixes) {
        const hourMs = Math.floor(fix.recordedAtMs / HOUR_MS) * HOUR_MS;
        hours.set(hourMs, [...(hours.get(hourMs) ?? []), fix]);
      }
      const outcomes = await Promise.allSettled(
        [...hours].map(async ([hourMs, hourFixes]) => {
          // Successive slices small enough for one transaction each (a request brings at most 500).
          const slice = MAX_NEW_ITEMS_PER_WRITE * MAX_HISTORY_POINTS_PER_ITEM;
          for (let i = 0; i < hourFixes.length; i += slice) {
            try {
              await appendToHour(
                client,
                tableName,
                fleetId,
                vehicleId,
                hourMs,
                hourFixes.slice(i, i + slice),
                maxItemsPerHour,
              );
            } catch (error) {
              // What this slice did not store, and every later slice (not attempted).
              const later = hourFixes.slice(i + slice);
              if (error instanceof HourFullError)
                throw new HourFullError(error.message, [...error.overflow, ...later]);
              throw Object.assign(new Error('append failed', { cause: error }), {
                notStored: hourFixes.slice(i),
              });
            }
          }
        }),
      );
      const failed: PositionFix[] = [];
      const hourFull: PositionFix[] = [];
      let cause: unknown;
      for (const outcome of outcomes) {
        if (outcome.status === 'fulfilled') continue;
        const error = outcome.reason as Error & { notStored?: PositionFix[] };
        if (error instanceof HourFullError) {
          failed.push(...error.overflow);
          hourFull.push(...error.overflow);
        } else {
          failed.push(...(error.notStored ?? []));
        }
        cause ??= error instanceof HourFullError ? error : error.cause;
      }
      if (failed.length > 0) throw new HistoryWriteError(failed, cause, hourFull);
    },

    async historySince(fleetId, vehicleId, afterMs, untilMs, snapshot) {
      const lookbackStartMs =
        untilMs - (afterMs === null ? HISTORY_LOOKBACK_HOURS * 3_600_000 : REPLAY_LOOKBACK_DAYS * 86_400_000);
      const fromMs = Math.max(afterMs ?? lookbackStartMs, lookbackStartMs);
      // Keyed by time: appends store a breadcrumb once, but an item may still repeat one across items.
      const points = new Map<number, HistoryPoint>();
      const keep = (tuples: readonly HistoryTuple[]) => {
        for (const tuple of tuples) {
          const at = Number(tuple[0]);
          // The first copy of a resent breadcrumb wins, as in detection.
          if (at < fromMs || at > untilMs || (afterMs !== null && at <= afterMs) || points.has(at)) continue;
          points.set(at, pointOf(tuple));
        }
      };
      // The ring before the history items: a flush committed in between moves breadcrumbs from the
      // ring into a chunk the (consistent) query then sees; read the other way round, they would be
      // in neither. The worker hands over the item it read before calling.
      const ringPoints: HistoryTuple[] =
        snapshot?.recent.map((p) => [
          p.recordedAtMs,
          p.latitude,
          p.longitude,
          p.fuelLevelPercent,
          p.speedKmh,
        ]) ?? ringOfItem(await readPositionItem(client, tableName, fleetId, vehicleId, true));
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :until',
            ExpressionAttributeValues: {
              ':pk': `FLEET#${fleetId}`,
              ':from': historyBucketKey(fleetId, vehicleId, fromMs).sk,
              // The last hour's continuation items too (`…T13#0001` sorts before `…T13#~`).
              ':until': `${historyBucketKey(fleetId, vehicleId, untilMs).sk}#~`,
            },
            ProjectionExpression: 'points',
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) keep(tuplesOf(item.points));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      // The newest breadcrumbs are still in the latest-position item's ring.
      keep(ringPoints);
      return [...points.values()].sort((a, b) => a.recordedAtMs - b.recordedAtMs);
    },
  };
  return store;
}

const pointOf = ([recordedAtMs, latitude, longitude, fuel, speed]: HistoryTuple): HistoryPoint => ({
  recordedAtMs: Number(recordedAtMs),
  latitude: Number(latitude),
  longitude: Number(longitude),
  fuelLevelPercent: orNull(fuel),
  speedKmh: orNull(speed),
});

type PositionItem = Record<string, unknown>;

async function readPositionItem(
  client: DocumentClient,
  tableName: string,
  fleetId: string,
  vehicleId: string,
  consistent: boolean,
): Promise<PositionItem | null> {
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: latestPositionKey(fleetId, vehicleId),
      ConsistentRead: consistent,
    }),
  );
  return Item ?? null;
}

function latestOf(item: PositionItem): LatestPosition {
  const recordedAtMs = Number(item.recorded_at_ms ?? Date.parse(String(item.recorded_at)));
  const latest: LatestPosition = {
    latitude: Number(item.latitude),
    longitude: Number(item.longitude),
    recordedAt: String(item.recorded_at),
    recordedAtMs,
    receivedAtMs: Number(item.received_at_ms ?? recordedAtMs),
    fuelLevelPercent: orNull(item.fuel_level_percent),
    speedKmh: orNull(item.speed_kmh),
    headingDegrees: orNull(item.heading_degrees),
    driverRef: (item.driver_ref as string | undefined) ?? null,
    address: (item.address as string | undefined) ?? null,
  };
  // The ring holds the breadcrumbs just before it: enough to tell which way the truck is going.
  return { ...latest, travelHeadingDegrees: travelHeading(latest, ringOfItem(item).map(pointOf)) };
}

/**
 * The item's ring and how far history reaches. An item without a ring (no `ring`
 * attribute) counts as having every breadcrumb up to its position in history.
 */
const ringOfItem = (item: PositionItem | null): HistoryTuple[] => (item ? ringOf(item).ring : []);

function ringOf(item: PositionItem): { ring: HistoryTuple[]; flushedThroughMs: number | null } {
  if (item.ring === undefined) return { ring: [], flushedThroughMs: orNull(item.recorded_at_ms) };
  // Packed, or a list of number lists in an item no request has rewritten since packing.
  return { ring: tuplesOf(item.ring), flushedThroughMs: orNull(item.flushed_through_ms) };
}

/** The latest position's attributes (the names GET …/location and the scorecard read). */
const latestAttributes = (fix: PositionFix): Record<string, unknown> => ({
  latitude: fix.latitude,
  longitude: fix.longitude,
  recorded_at: formatTimestamp(fix.recordedAtMs),
  recorded_at_ms: fix.recordedAtMs,
  received_at_ms: fix.receivedAtMs,
  fuel_level_percent: fix.fuelLevelPercent,
  speed_kmh: fix.speedKmh,
  heading_degrees: fix.headingDegrees,
  driver_ref: fix.driverRef,
  address: fix.address,
});

/** The write's condition: the item is still as read (its ring version, or absent, or an item without a ring). */
function expectUnchanged(item: PositionItem | null) {
  if (!item) return { ConditionExpression: 'attribute_not_exists(pk)' };
  if (item.rv === undefined) {
    return {
      ConditionExpression: 'attribute_not_exists(rv) AND recorded_at_ms = :read',
      ExpressionAttributeValues: { ':read': item.recorded_at_ms },
    };
  }
  return expectVersion(Number(item.rv));
}

/** The condition that the item exists at ring version `version` (0: an item without a ring). */
export const expectVersion = (version: number) =>
  version === 0
    ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(rv)' }
    : { ConditionExpression: 'rv = :version', ExpressionAttributeValues: { ':version': version } };

/** Flushed breadcrumbs as immutable chunks, each written only if its key is new. */
function chunkPuts(
  tableName: string,
  fleetId: string,
  vehicleId: string,
  flushed: readonly HistoryTuple[],
): TransactAction[] {
  return chunksOf(flushed).map(({ hourMs, points }) => ({
    Put: {
      TableName: tableName,
      Item: {
        ...historyChunkKey(fleetId, vehicleId, hourMs, Number(points[0]?.[0])),
        points: packTuples(points),
        expires_at: historyTtl(hourMs),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }));
}

/** Kept until the hour's last possible breadcrumb is 90 days old, whichever item holds it. */
const historyTtl = (hourMs: number) =>
  ttlEpochSeconds(hourMs + HOUR_MS + POSITION_HISTORY_RETENTION_DAYS * 86_400_000);

/**
 * A numbered hour item as read: its breadcrumbs, and what an append's condition compares to know
 * it unchanged since. Appends only ever add breadcrumbs, so its `points` size is enough: the
 * number of tuples in the list layout, the byte length packed (re-packing more breadcrumbs always
 * takes more bytes); with the type, an item rewritten packed meanwhile never passes for the list.
 */
interface HourItem {
  sequence: number;
  points: HistoryTuple[];
  size: number;
  type: 'B' | 'L';
}

/** The hour's items, in sort-key order (the numbered ones, which appends extend), and every stored time. */
async function readHour(
  client: DocumentClient,
  tableName: string,
  fleetId: string,
  vehicleId: string,
  hourMs: number,
) {
  const first = historyBucketKey(fleetId, vehicleId, hourMs);
  const items: HourItem[] = [];
  const stored = new Set<number>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :hour)',
        ExpressionAttributeValues: { ':pk': first.pk, ':hour': first.sk },
        ProjectionExpression: 'sk, points',
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const suffix = String(item.sk).slice(first.sk.length + 1);
      const points = tuplesOf(item.points);
      for (const point of points) stored.add(Number(point[0]));
      // A chunk the ring flushed is never appended to: only the numbered items are.
      if (!suffix.startsWith('m')) {
        const packed = item.points instanceof Uint8Array;
        items.push({
          sequence: suffix ? Number(suffix) : 0,
          points,
          size: packed ? (item.points as Uint8Array).byteLength : (item.points as unknown[]).length,
          type: packed ? 'B' : 'L',
        });
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { items, stored };
}

/**
 * Appends the breadcrumbs of one vehicle and hour that are not stored yet: the room left in the
 * hour's last item first (conditional on its size being what was read), then new items of at most
 * {@link MAX_HISTORY_POINTS_PER_ITEM} (conditional on not existing) — all in one write that
 * succeeds or fails whole (one transaction when it touches more than one item). A failed condition
 * means another writer got there first: nothing of this attempt was stored, so read again and
 * write what is still missing. Breadcrumbs beyond the hour's last possible item are not stored
 * ({@link HourFullError}, after storing those that fit).
 */
async function appendToHour(
  client: DocumentClient,
  tableName: string,
  fleetId: string,
  vehicleId: string,
  hourMs: number,
  fixes: readonly PositionFix[],
  maxItemsPerHour: number,
): Promise<void> {
  const ttl = historyTtl(hourMs);
  for (let attempt = 1; ; attempt++) {
    const { items, stored } = await readHour(client, tableName, fleetId, vehicleId, hourMs);
    const fresh: PositionFix[] = [];
    for (const fix of fixes) {
      if (stored.has(fix.recordedAtMs)) continue;
      stored.add(fix.recordedAtMs); // the first copy in the batch wins
      fresh.push(fix);
    }
    if (fresh.length === 0) return;

    const last = items.reduce<HourItem | null>(
      (a, b) => (a === null || b.sequence > a.sequence ? b : a),
      null,
    );
    const room =
      (last ? MAX_HISTORY_POINTS_PER_ITEM - last.points.length : 0) +
      Math.max(0, maxItemsPerHour - (last ? last.sequence + 1 : 0)) * MAX_HISTORY_POINTS_PER_ITEM;
    const fitting = fresh.slice(0, room);
    const overflow = fresh.slice(room);

    const actions: TransactAction[] = [];
    let rest = fitting.map(toTuple);
    if (last && last.points.length < MAX_HISTORY_POINTS_PER_ITEM && rest.length > 0) {
      const head = rest.slice(0, MAX_HISTORY_POINTS_PER_ITEM - last.points.length);
      rest = rest.slice(head.length);
      // Packed bytes cannot be appended to in place: the item is rewritten whole (an item in the
      // list layout becomes packed), which costs what `list_append` did (billed on the whole item).
      actions.push({
        Update: {
          TableName: tableName,
          Key: historyItemKey(fleetId, vehicleId, hourMs, last.sequence),
          UpdateExpression: 'SET points = :points, expires_at = :ttl',
          ConditionExpression: 'size(points) = :size AND attribute_type(points, :type)',
          ExpressionAttributeValues: {
            ':points': packTuples([...last.points, ...head]),
            ':size': last.size,
            ':type': last.type,
            ':ttl': ttl,
          },
        },
      });
    }
    let sequence = last ? last.sequence + 1 : 0;
    for (let i = 0; i < rest.length; i += MAX_HISTORY_POINTS_PER_ITEM, sequence++) {
      actions.push({
        Put: {
          TableName: tableName,
          Item: {
            ...historyItemKey(fleetId, vehicleId, hourMs, sequence),
            points: packTuples(rest.slice(i, i + MAX_HISTORY_POINTS_PER_ITEM)),
            expires_at: ttl,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
    }
    try {
      await writeAllOrNothing(client, actions);
    } catch (error) {
      const lostRace = isConditionFailure(error) || isTransactionConflict(error);
      if (!lostRace || attempt >= MAX_APPEND_ATTEMPTS) throw error;
      // Writers that lost together should not meet again at once.
      await sleep(Math.random() * 20 * attempt);
      continue;
    }
    if (overflow.length > 0) {
      throw new HourFullError(
        `vehicle ${vehicleId}: the history of hour ${new Date(hourMs).toISOString()} is full`,
        overflow,
      );
    }
    return;
  }
}

type TransactAction = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * One conditional write is atomic by itself (and costs half a transaction's write units); two or
 * more go in one transaction, so either all of them are stored or none.
 */
async function writeAllOrNothing(client: DocumentClient, actions: TransactAction[]) {
  if (actions.length === 0) return;
  const [only] = actions;
  if (actions.length === 1 && only) {
    if (only.Update) await client.send(new UpdateCommand(only.Update));
    else if (only.Put) await client.send(new PutCommand(only.Put));
    return;
  }
  await client.send(new TransactWriteCommand({ TransactItems: actions }));
}
