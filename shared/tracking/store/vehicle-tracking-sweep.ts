import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryAll } from '#shared/table/query-pages.ts';
import { GSI1, GSI2 } from '#shared/table/table.ts';
import {
  isConditionFailure,
  isTransactionConflict,
  type TransactAction,
} from '#shared/table/transactions.ts';
import type { VehicleTracking } from '../domain/vehicle-tracking.ts';
import { onlinePartition, onlineSortTime, parseOnlineSortKey } from './online-index.ts';
import { expectVersion, latestPositionKey } from './vehicle-positions.ts';
import { createTrackingCommit } from './vehicle-tracking-cycle.ts';
import { heartbeatKey, trackingKey, versionAsRead } from './vehicle-tracking-items.ts';

export interface SilentVehicle {
  fleetId: string;
  vehicleId: string;
  /** What the index says (a bucket of the receipt time, or the marker's time): the sweep checks the real one. */
  lastSeenMs: number;
  /** Found through a latest-position item's online keys, or through a visit marker. */
  source: 'position' | 'marker';
}

/**
 * The offline sweep's access: the silent vehicles of an index shard, and its writes that take a
 * vehicle offline (its tracking, its position item out of the online index, its visit marker), each
 * only while the tracking item is as the sweep read it.
 */
export function createVehicleTrackingSweep(client: DocumentClient, tableName: string) {
  const commit = createTrackingCommit(client, tableName);
  /** The position item's removal from the online index, while it is at ring version `positionVersion`. */
  const outOfOnlineIndex = (tracking: VehicleTracking, positionVersion: number) => ({
    TableName: tableName,
    Key: latestPositionKey(tracking.fleetId, tracking.vehicleId),
    UpdateExpression: 'REMOVE gsi2pk, gsi2sk',
    ...expectVersion(positionVersion),
  });
  /** A transaction; false when a condition failed or another write was in flight (the item moved). */
  const transactUnlessMoved = async (items: TransactAction[]) => {
    try {
      await client.send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (error) {
      if (isConditionFailure(error) || isTransactionConflict(error)) return false;
      throw error;
    }
  };
  /** A write of another item, done only while the tracking item is as read (or still absent). */
  const whileUnchanged = (tracking: VehicleTracking, write: TransactAction) =>
    transactUnlessMoved([
      {
        ConditionCheck: {
          TableName: tableName,
          Key: trackingKey(tracking.fleetId, tracking.vehicleId),
          ...versionAsRead(tracking),
        },
      },
      write,
    ]);
  /** One shard of an index's `VEHONLINE#` entries older than `beforeMs`, every page. */
  async function queryOnlineIndex(
    indexName: string,
    prefix: 'gsi1' | 'gsi2',
    shard: number,
    beforeMs: number,
  ) {
    const found: Omit<SilentVehicle, 'source'>[] = [];
    const items = await queryAll(client, {
      TableName: tableName,
      IndexName: indexName,
      KeyConditionExpression: `${prefix}pk = :shard AND ${prefix}sk < :before`,
      ExpressionAttributeValues: {
        ':shard': onlinePartition(shard),
        ':before': onlineSortTime(beforeMs),
      },
      ProjectionExpression: `${prefix}sk`,
    });
    for (const item of items) {
      const parsed = parseOnlineSortKey(String(item[`${prefix}sk`]));
      if (parsed)
        found.push({ fleetId: parsed.fleetId, vehicleId: parsed.vehicleId, lastSeenMs: parsed.atMs });
    }
    return found;
  }

  return {
    async saveOffline(
      tracking: VehicleTracking,
      positionVersion: number | null,
    ): Promise<VehicleTracking | null> {
      if (positionVersion === null) return commit.save(tracking);
      const { stored, put } = await commit.prepare(tracking);
      const written = await transactUnlessMoved([
        { Put: put },
        { Update: outOfOnlineIndex(tracking, positionVersion) },
      ]);
      return written ? stored : null;
    },

    async removeMarker(tracking: VehicleTracking): Promise<void> {
      await whileUnchanged(tracking, {
        Delete: { TableName: tableName, Key: heartbeatKey(tracking.fleetId, tracking.vehicleId) },
      });
    },

    leaveOnlineIndex(tracking: VehicleTracking, positionVersion: number): Promise<boolean> {
      return whileUnchanged(tracking, { Update: outOfOnlineIndex(tracking, positionVersion) });
    },

    async silentSince(shard: number, beforeMs: number): Promise<SilentVehicle[]> {
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
