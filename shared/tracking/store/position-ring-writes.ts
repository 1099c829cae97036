import { setTimeout as sleep } from 'node:timers/promises';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { isConditionFailure, isTransactionConflict, writeAllOrNothing } from '#shared/table/transactions.ts';
import type { PositionFix, RecentPositions } from '../domain/positions.ts';
import { packTuples } from './breadcrumb-packing.ts';
import { positionOnlineKeys } from './online-index.ts';
import { chunkPuts, HistoryWriteError, MAX_APPEND_ATTEMPTS } from './position-history.ts';
import {
  expectUnchanged,
  latestAttributes,
  latestOf,
  latestPositionKey,
  pointOf,
  readPositionItem,
  ringOf,
} from './position-item.ts';
import { flushIfFull, mergeIntoRing, slicesForOneWrite } from './position-ring.ts';

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

/**
 * The ring write path: a request's breadcrumbs of one vehicle into the latest-position item's
 * ring with the position, flushing full rings to history chunks in the same write; breadcrumbs
 * older than history reaches go to `appendHistory` first (position-history-append.ts).
 */
export function createPositionRecorder(
  client: DocumentClient,
  tableName: string,
  appendHistory: (fleetId: string, vehicleId: string, fixes: readonly PositionFix[]) => Promise<void>,
) {
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
          await appendHistory(fleetId, vehicleId, late);
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

  return async function record(
    fleetId: string,
    vehicleId: string,
    fixes: readonly PositionFix[],
    prefetched?: PrefetchedPosition,
  ): Promise<RecordOutcome> {
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
  };
}
