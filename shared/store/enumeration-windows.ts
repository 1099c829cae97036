import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CellVisit, EnumerationWindow } from '../domain/stations/enumeration-guard.ts';
import type { GeoPoint } from '../geo/distance.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { ttlEpochSeconds } from './table.ts';
import { isConditionFailure } from './transactions.ts';

/**
 * The enumeration guard's sliding window per key and acting fleet (`ENUM#key_…#flt_…`/`WINDOW`): the cells
 * the key's recent station queries for that fleet touched, compact as `[cell, ms]` pairs, and the end of a cool-down. A
 * query appends its cells atomically (`list_append`, one write that returns the whole window), so
 * concurrent queries of one key never drop each other's cells; pruning rewrites the list only on
 * the condition that nobody appended since.
 */
/** `windowId`: `<key id>#<acting fleet id>` (one window per key and fleet). */
export const enumerationWindowKey = (windowId: string) => ({ pk: `ENUM#${windowId}`, sk: 'WINDOW' });

export type AppendOutcome =
  /** The window with this query's visits, and how many visits the stored list holds. */
  | { kind: 'appended'; window: EnumerationWindow; storedVisits: number }
  /** The key is cooling down: nothing was appended; the window as stored. */
  | { kind: 'blocked'; window: EnumerationWindow };

export interface EnumerationWindowStore {
  /** Appends the visits unless the key is cooling down at `nowMs`. */
  append(
    keyId: string,
    visits: readonly CellVisit[],
    nowMs: number,
    expiresAtMs: number,
  ): Promise<AppendOutcome>;
  /** Replaces the list by `visits` if it still holds `expectedVisits` entries; false when it changed. */
  prune(keyId: string, visits: readonly CellVisit[], expectedVisits: number): Promise<boolean>;
  /** Starts a cool-down (the item lives at least until it ends). */
  block(keyId: string, blockedUntilMs: number): Promise<void>;
  /** Remembers that the window was found near the fleet until `vettedUntilMs`. */
  markVetted(keyId: string, vettedUntilMs: number): Promise<void>;
  /** The latest position of every vehicle of the fleet (one query; only when a window looks suspicious). */
  fleetPositions(fleetId: string): Promise<GeoPoint[]>;
}

/** DynamoDB deletes expired items within days, not at once: readers filter by time anyway. */
const EXPIRY_SLACK_MS = 60 * 60_000;

const toStored = (visits: readonly CellVisit[]) => visits.map(({ cell, atMs }) => [cell, atMs]);

function windowOf(item: Record<string, unknown> | undefined): EnumerationWindow {
  const visits = (item?.visits as [string, number][] | undefined) ?? [];
  const ms = (value: unknown) => (value === undefined || value === null ? null : Number(value));
  return {
    visits: visits.map(([cell, atMs]) => ({ cell, atMs: Number(atMs) })),
    blockedUntilMs: ms(item?.blocked_until_ms),
    vettedUntilMs: ms(item?.vetted_until_ms),
  };
}

export function createEnumerationWindowStore(
  client: DocumentClient,
  tableName: string,
): EnumerationWindowStore {
  const key = enumerationWindowKey;
  return {
    async append(keyId, visits, nowMs, expiresAtMs) {
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key(keyId),
            UpdateExpression:
              'SET visits = list_append(if_not_exists(visits, :none), :visits), ' + 'expires_at = :ttl',
            // Only when not cooling down: so this never shortens a cool-down's expiry either.
            ConditionExpression: 'attribute_not_exists(blocked_until_ms) OR blocked_until_ms <= :now',
            ExpressionAttributeValues: {
              ':none': [],
              ':visits': toStored(visits),
              ':ttl': ttlEpochSeconds(expiresAtMs + EXPIRY_SLACK_MS),
              ':now': nowMs,
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        const window = windowOf(Attributes);
        return { kind: 'appended', window, storedVisits: window.visits.length };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const { Item } = await client.send(
          new GetCommand({ TableName: tableName, Key: key(keyId), ConsistentRead: true }),
        );
        return { kind: 'blocked', window: windowOf(Item) };
      }
    },
    async prune(keyId, visits, expectedVisits) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key(keyId),
            UpdateExpression: 'SET visits = :visits',
            ConditionExpression: 'size(visits) = :expected',
            ExpressionAttributeValues: { ':visits': toStored(visits), ':expected': expectedVisits },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    async block(keyId, blockedUntilMs) {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key(keyId),
          UpdateExpression: 'SET blocked_until_ms = :until, expires_at = :ttl',
          ExpressionAttributeValues: {
            ':until': blockedUntilMs,
            ':ttl': ttlEpochSeconds(blockedUntilMs + EXPIRY_SLACK_MS),
          },
        }),
      );
    },
    async markVetted(keyId, vettedUntilMs) {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key(keyId),
          UpdateExpression: 'SET vetted_until_ms = :until',
          ExpressionAttributeValues: { ':until': vettedUntilMs },
        }),
      );
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
