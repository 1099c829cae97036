import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import type { HistoryPoint, LatestPosition, PositionFix, RecentPositions } from '../domain/positions.ts';
import { MAX_HISTORY_ITEMS_PER_HOUR } from './position-history.ts';
import { createHistoryAppender } from './position-history-append.ts';
import { createHistoryReader } from './position-history-reads.ts';
import { createPositionItemReads } from './position-item-reads.ts';
import { createPositionItemUpdates } from './position-item-updates.ts';
import type { PrefetchedPosition, RecordOutcome } from './position-ring-writes.ts';
import { createPositionRecorder } from './position-ring-writes.ts';

/**
 * A vehicle's positions: the latest-position item with the ring of its newest breadcrumbs
 * (position-item.ts), and the hour items of history (position-history.ts). Each access pattern is
 * a module of its own; the store composes them:
 * - the ring write path, ingest's `record` (position-ring-writes.ts);
 * - the history append, for late breadcrumbs (position-history-append.ts);
 * - the history reads, the worker's `historySince` (position-history-reads.ts);
 * - the item's reads, `latest`, `recent`, `prefetch` (position-item-reads.ts);
 * - single updates, the online index's `rejoinOnlineIndex` and `recordLatest` (position-item-updates.ts).
 */

export {
  HistoryWriteError,
  historyBucketKey,
  historyChunkKey,
  historyItemKey,
  MAX_HISTORY_ITEMS_PER_HOUR,
  MAX_HISTORY_POINTS_PER_ITEM,
  POSITION_HISTORY_RETENTION_DAYS,
} from './position-history.ts';
export { HISTORY_LOOKBACK_HOURS, REPLAY_LOOKBACK_DAYS } from './position-history-reads.ts';
export { expectVersion, latestPositionKey } from './position-item.ts';
export { createLatestPositionReader, type LatestPositionReader } from './position-item-reads.ts';
export type { PrefetchedPosition, RecordOutcome } from './position-ring-writes.ts';
export type { RecentPositions };

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

export interface VehiclePositionStoreOptions {
  /** Items an hour may have ({@link MAX_HISTORY_ITEMS_PER_HOUR}); lowered by tests only. */
  maxItemsPerHour?: number;
}

export function createVehiclePositionStore(
  client: DocumentClient,
  tableName: string,
  options: VehiclePositionStoreOptions = {},
): VehiclePositionStore {
  const appendHistory = createHistoryAppender(
    client,
    tableName,
    options.maxItemsPerHour ?? MAX_HISTORY_ITEMS_PER_HOUR,
  );
  return {
    ...createPositionItemReads(client, tableName),
    ...createPositionItemUpdates(client, tableName),
    record: createPositionRecorder(client, tableName, appendHistory),
    appendHistory,
    historySince: createHistoryReader(client, tableName),
  };
}
