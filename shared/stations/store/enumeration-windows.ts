import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { GeoPoint } from '#shared/kernel/distance.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryAll, sortKeyPrefix } from '#shared/table/query-pages.ts';
import { ttlEpochSeconds } from '#shared/table/table.ts';
import { isConditionFailure } from '#shared/table/transactions.ts';
import type { EnumerationWindow, Finding } from '../domain/enumeration-guard.ts';

/**
 * The enumeration guard's sliding window per key and acting fleet (`ENUM#key_…#flt_…`/`WINDOW`):
 * one string set per time bucket (`b<bucket>`) of the cells and areas the key's recent station
 * queries for that fleet touched, and the end of a cool-down or of a vetting. A query adds its
 * entries to the current bucket's set (`ADD`: atomic, so concurrent queries never drop each
 * other's cells, and a cell already in the set does not grow the item) and removes the bucket that
 * just left the window in the same write. Nothing is recorded while the key is cooling down or
 * vetted, and both start by emptying the window, so the item stays as small as the rule allows:
 * the write units of a query follow the item's size, not what the write returns.
 */
/** `windowId`: `<key id>#<acting fleet id>` (one window per key and fleet). */
export const enumerationWindowKey = (windowId: string) => ({ pk: `ENUM#${windowId}`, sk: 'WINDOW' });

const BUCKET_PREFIX = 'b';

export type AddOutcome =
  /** The window with this query's entries. */
  | { kind: 'added'; window: EnumerationWindow }
  /** The key is cooling down or vetted: nothing was added; the window as stored. */
  | { kind: 'held'; window: EnumerationWindow };

export interface EnumerationWindowStore {
  /**
   * Adds `entries` to bucket `bucket` (and drops bucket `expiredBucket`) unless the key is cooling
   * down or vetted at `nowMs`.
   */
  add(
    windowId: string,
    bucket: number,
    entries: readonly string[],
    expiredBucket: number,
    nowMs: number,
    expiresAtMs: number,
  ): Promise<AddOutcome>;
  /** Removes buckets that left the window (nobody adds to them any more, so no condition). */
  removeBuckets(windowId: string, buckets: readonly number[]): Promise<void>;
  /** Starts a cool-down with what the window held, and empties the window. */
  block(
    windowId: string,
    blockedUntilMs: number,
    finding: Finding,
    buckets: readonly number[],
  ): Promise<void>;
  /** Remembers that the window was found near the fleet until `vettedUntilMs`, and empties it. */
  markVetted(windowId: string, vettedUntilMs: number, buckets: readonly number[]): Promise<void>;
  /** The latest position of every vehicle of the fleet (one query; only when a window looks suspicious). */
  fleetPositions(fleetId: string): Promise<GeoPoint[]>;
}

/** DynamoDB deletes expired items within days, not at once: readers filter by time anyway. */
const EXPIRY_SLACK_MS = 60 * 60_000;

const bucketAttribute = (bucket: number) => `${BUCKET_PREFIX}${bucket}`;

function windowOf(item: Record<string, unknown> | undefined): EnumerationWindow {
  const buckets = new Map<number, string[]>();
  for (const [name, value] of Object.entries(item ?? {})) {
    if (!/^b\d+$/.test(name)) continue;
    buckets.set(Number(name.slice(BUCKET_PREFIX.length)), [...(value as Set<string>)]);
  }
  const ms = (value: unknown) => (value === undefined || value === null ? null : Number(value));
  const finding: Finding | null =
    item?.blocked_rule === undefined
      ? null
      : {
          rule: item.blocked_rule as Finding['rule'],
          limit: Number(item.blocked_limit),
          used: Number(item.blocked_used),
        };
  return {
    buckets,
    blockedUntilMs: ms(item?.blocked_until_ms),
    blockedFinding: finding,
    vettedUntilMs: ms(item?.vetted_until_ms),
  };
}

/** `REMOVE b1, b2` with its attribute names; empty when there is nothing to remove. */
function removal(buckets: readonly number[]) {
  const names: Record<string, string> = {};
  for (const [i, bucket] of buckets.entries()) names[`#r${i}`] = bucketAttribute(bucket);
  return { clause: buckets.length ? ` REMOVE ${Object.keys(names).join(', ')}` : '', names };
}

export function createEnumerationWindowStore(
  client: DocumentClient,
  tableName: string,
): EnumerationWindowStore {
  const key = enumerationWindowKey;
  return {
    async add(windowId, bucket, entries, expiredBucket, nowMs, expiresAtMs) {
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key(windowId),
            // `visits`: the former design's list; dropping it keeps an active key's item small
            // from its first query after the deploy (a no-op once gone).
            UpdateExpression: 'ADD #bucket :entries SET expires_at = :ttl REMOVE #expired, visits',
            // Only when neither cooling down (so this never shortens a cool-down's expiry either)
            // nor vetted (a busy fleet's window is not rebuilt while it is known to be fine).
            ConditionExpression:
              '(attribute_not_exists(blocked_until_ms) OR blocked_until_ms <= :now) AND ' +
              '(attribute_not_exists(vetted_until_ms) OR vetted_until_ms <= :now)',
            ExpressionAttributeNames: {
              '#bucket': bucketAttribute(bucket),
              '#expired': bucketAttribute(expiredBucket),
            },
            ExpressionAttributeValues: {
              ':entries': new Set(entries),
              ':ttl': ttlEpochSeconds(expiresAtMs + EXPIRY_SLACK_MS),
              ':now': nowMs,
            },
            // The rule needs every live bucket; returning them costs no write units.
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { kind: 'added', window: windowOf(Attributes) };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // The item as it was, when the endpoint returns it with the refusal (raw attribute values:
        // the document client does not translate errors); otherwise one consistent read.
        const returned = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
        if (returned) return { kind: 'held', window: windowOf(unmarshall(returned)) };
        const { Item } = await client.send(
          new GetCommand({ TableName: tableName, Key: key(windowId), ConsistentRead: true }),
        );
        return { kind: 'held', window: windowOf(Item) };
      }
    },
    async removeBuckets(windowId, buckets) {
      const { clause, names } = removal(buckets);
      if (!clause) return;
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key(windowId),
          UpdateExpression: clause.trim(),
          ExpressionAttributeNames: names,
        }),
      );
    },
    async block(windowId, blockedUntilMs, finding, buckets) {
      const { clause, names } = removal(buckets);
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key(windowId),
          UpdateExpression:
            'SET blocked_until_ms = :until, blocked_rule = :rule, blocked_limit = :limit, ' +
            `blocked_used = :used, expires_at = :ttl${clause}`,
          ...(clause ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: {
            ':until': blockedUntilMs,
            ':rule': finding.rule,
            ':limit': finding.limit,
            ':used': finding.used,
            ':ttl': ttlEpochSeconds(blockedUntilMs + EXPIRY_SLACK_MS),
          },
        }),
      );
    },
    async markVetted(windowId, vettedUntilMs, buckets) {
      const { clause, names } = removal(buckets);
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key(windowId),
          UpdateExpression: `SET vetted_until_ms = :until${clause}`,
          ...(clause ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: { ':until': vettedUntilMs },
        }),
      );
    },
    async fleetPositions(fleetId) {
      const items = await queryAll(client, {
        TableName: tableName,
        ...sortKeyPrefix(`FLEET#${fleetId}`, 'VEHPOS#'),
        ProjectionExpression: 'latitude, longitude',
      });
      return items.map(
        (item): GeoPoint => ({ latitude: Number(item.latitude), longitude: Number(item.longitude) }),
      );
    },
  };
}
