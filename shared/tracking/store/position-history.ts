import { ttlEpochSeconds } from '#shared/table/table.ts';
import type { TransactAction } from '#shared/table/transactions.ts';
import type { PositionFix } from '../domain/positions.ts';
import { packTuples } from './breadcrumb-packing.ts';
import { chunksOf, type HistoryTuple } from './position-ring.ts';

/**
 * Breadcrumb history: per vehicle and UTC hour, a run of items of at most
 * {@link MAX_HISTORY_POINTS_PER_ITEM} `[ms, lat, lon, fuel, km/h]` tuples each, packed into one
 * binary `points` attribute (breadcrumb-packing.ts; an item holding a list of number lists, the
 * list layout, is read alike). The hour's first item is `VEHHIST#veh_…#2026-11-21T22`, its
 * continuations `VEHHIST#veh_…#2026-11-21T22#0001`, `#0002`, … (they sort right after it and
 * before the next hour), and the ring's flushed chunks sort among them ({@link historyChunkKey}),
 * so a truck reporting every minute still costs one item an hour, and one reporting every 200 ms a few dozen instead of an item DynamoDB
 * refuses (400 KB). A breadcrumb (vehicle, recorded ms) is stored once: appending reads the hour's
 * items first and writes only the times not stored yet, in one all-or-nothing write (a transaction
 * when it touches more than one item) conditional on the last item being unchanged since
 * (`size(points)` and its type) and the new items not existing, so two writers racing re-read
 * instead of both appending.
 */

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
export const MAX_NEW_ITEMS_PER_WRITE = 98;
/** Re-reads when another writer changed the hour's items under us; then the write fails (retryable). */
export const MAX_APPEND_ATTEMPTS = 8;
export const HOUR_MS = 3_600_000;

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
export class HourFullError extends Error {
  readonly overflow: readonly PositionFix[];
  constructor(message: string, overflow: readonly PositionFix[]) {
    super(message);
    this.name = 'HourFullError';
    this.overflow = overflow;
  }
}

/** Breadcrumb history is kept this long (DynamoDB TTL on each hourly bucket). */
export const POSITION_HISTORY_RETENTION_DAYS = 90;

/** Flushed breadcrumbs as immutable chunks, each written only if its key is new. */
export function chunkPuts(
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
export const historyTtl = (hourMs: number) =>
  ttlEpochSeconds(hourMs + HOUR_MS + POSITION_HISTORY_RETENTION_DAYS * 86_400_000);
