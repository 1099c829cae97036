import { setTimeout as sleep } from 'node:timers/promises';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryAll, sortKeyPrefix } from '#shared/table/query-pages.ts';
import {
  isConditionFailure,
  isTransactionConflict,
  type TransactAction,
  writeAllOrNothing,
} from '#shared/table/transactions.ts';
import type { PositionFix } from '../domain/positions.ts';
import { packTuples, tuplesOf } from './breadcrumb-packing.ts';
import {
  HistoryWriteError,
  HOUR_MS,
  HourFullError,
  historyBucketKey,
  historyItemKey,
  historyTtl,
  MAX_APPEND_ATTEMPTS,
  MAX_HISTORY_ITEMS_PER_HOUR,
  MAX_HISTORY_POINTS_PER_ITEM,
  MAX_NEW_ITEMS_PER_WRITE,
} from './position-history.ts';
import { type HistoryTuple, toTuple } from './position-ring.ts';

/**
 * Stores each breadcrumb not stored yet (by recorded time), once, hour by hour (hours are
 * independent). Throws {@link HistoryWriteError} naming the breadcrumbs not stored when only some
 * hours could be written.
 */
export function createHistoryAppender(
  client: DocumentClient,
  tableName: string,
  maxItemsPerHour = MAX_HISTORY_ITEMS_PER_HOUR,
) {
  return async function appendHistory(
    fleetId: string,
    vehicleId: string,
    fixes: readonly PositionFix[],
  ): Promise<void> {
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
  };
}

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
  const rows = await queryAll(client, {
    TableName: tableName,
    ...sortKeyPrefix(first.pk, first.sk),
    ProjectionExpression: 'sk, points',
    ConsistentRead: true,
  });
  for (const item of rows) {
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
