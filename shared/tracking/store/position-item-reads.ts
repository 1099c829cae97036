import { batchGetItems } from '#shared/table/batch-get.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import type { LatestPosition, RecentPositions } from '../domain/positions.ts';
import { latestOf, latestPositionKey, pointOf, readPositionItem, ringOf } from './position-item.ts';
import type { PrefetchedPosition } from './position-ring-writes.ts';

/** The latest position's read: all that trips, routes and GET …/location need of the store. */
export interface LatestPositionReader {
  latest(fleetId: string, vehicleId: string): Promise<LatestPosition | null>;
}

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

/** Reads of the latest-position item: the position with its ring, and many vehicles' items at once. */
export function createPositionItemReads(client: DocumentClient, tableName: string) {
  return {
    ...createLatestPositionReader(client, tableName),

    async recent(
      fleetId: string,
      vehicleId: string,
      atLeastVersion?: number,
    ): Promise<RecentPositions | null> {
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

    async prefetch(fleetId: string, vehicleIds: readonly string[]): Promise<Map<string, PrefetchedPosition>> {
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
  };
}
