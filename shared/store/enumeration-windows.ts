import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { EnumerationWindow } from '../domain/stations/enumeration-guard.ts';
import type { GeoPoint } from '../geo/distance.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { ttlEpochSeconds } from './table.ts';
import { isConditionFailure } from './transactions.ts';

/**
 * The enumeration guard's per-key sliding window (`ENUM#key_…`/`WINDOW`): the cells the key's
 * recent station queries touched, compact as `[cell, ms]` pairs, and the end of a cool-down. Read,
 * decided on, and written back on a version condition: two concurrent queries of one key cannot
 * drop each other's cells (the loser re-reads).
 */
export const enumerationWindowKey = (keyId: string) => ({ pk: `ENUM#${keyId}`, sk: 'WINDOW' });

export interface VersionedWindow {
  window: EnumerationWindow;
  /** 0 when no item exists yet. */
  version: number;
}

export interface EnumerationWindowStore {
  read(keyId: string): Promise<VersionedWindow>;
  /** False when another query wrote the window since `expectedVersion` was read. */
  write(
    keyId: string,
    window: EnumerationWindow,
    expectedVersion: number,
    expiresAtMs: number,
  ): Promise<boolean>;
  /** The latest position of every vehicle of the fleet (one query; only when a window looks suspicious). */
  fleetPositions(fleetId: string): Promise<GeoPoint[]>;
}

export function createEnumerationWindowStore(
  client: DocumentClient,
  tableName: string,
): EnumerationWindowStore {
  return {
    async read(keyId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: enumerationWindowKey(keyId), ConsistentRead: true }),
      );
      if (!Item) return { window: { visits: [], blockedUntilMs: null, vettedUntilMs: null }, version: 0 };
      const visits = (Item.visits as [string, number][] | undefined) ?? [];
      return {
        version: Number(Item.version ?? 0),
        window: {
          visits: visits.map(([cell, atMs]) => ({ cell, atMs: Number(atMs) })),
          blockedUntilMs: Item.blocked_until_ms === undefined ? null : Number(Item.blocked_until_ms),
          vettedUntilMs: Item.vetted_until_ms === undefined ? null : Number(Item.vetted_until_ms),
        },
      };
    },
    async write(keyId, window, expectedVersion, expiresAtMs) {
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...enumerationWindowKey(keyId),
              visits: window.visits.map(({ cell, atMs }) => [cell, atMs]),
              blocked_until_ms: window.blockedUntilMs ?? undefined,
              vetted_until_ms: window.vettedUntilMs ?? undefined,
              version: expectedVersion + 1,
              expires_at: ttlEpochSeconds(expiresAtMs),
            },
            ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(pk)' : 'version = :expected',
            ...(expectedVersion === 0 ? {} : { ExpressionAttributeValues: { ':expected': expectedVersion } }),
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    async fleetPositions(fleetId) {
      const positions: GeoPoint[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': `FLEET#${fleetId}`, ':prefix': 'VEHPOS#' },
            ProjectionExpression: 'latitude, longitude',
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) {
          positions.push({ latitude: Number(item.latitude), longitude: Number(item.longitude) });
        }
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return positions;
    },
  };
}
