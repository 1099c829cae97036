import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EndpointFamily } from '#shared/kernel/access.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { ttlEpochSeconds } from '#shared/table/table.ts';
import { isConditionFailure } from '#shared/table/transactions.ts';
import { RATE_WINDOW_SECONDS } from '../domain/rate-window.ts';
import { admissionCeiling } from '../domain/usage-limits.ts';

/**
 * Atomic counters (`ADD`): per-key request windows and per-account monthly usage by family.
 * One item per key and minute spreads the hot write across partitions and expires by TTL.
 */
export const rateWindowKey = (keyId: string, windowStartSeconds: number) => ({
  pk: `RATE#${keyId}#${windowStartSeconds}`,
  sk: 'RATE',
});

export const usageKey = (accountId: string, periodId: string) => ({
  pk: `USAGE#${accountId}#${periodId}`,
  sk: 'USAGE',
});

/** What a month counts per account: endpoint families, the station budget and guidance overage. */
export type UsageCounter = EndpointFamily | 'station_results' | 'station_results_overage';

/** The outcome of a bounded add: admitted (counted) or refused (nothing counted); `used` after it. */
export interface BoundedAdd {
  admitted: boolean;
  used: number;
}

export interface Counters {
  /** Counts one request in the key's window and returns the hits so far, this one included. */
  hitRateWindow(keyId: string, windowStartSeconds: number): Promise<number>;
  /** Counts `amount` uses of a family (or the `stations` budget) in the account's month. */
  addUsage(accountId: string, periodId: string, family: UsageCounter, amount?: number): Promise<void>;
  /**
   * Counts `amount` only if the month's total stays at most `limit`, in one conditional write, so
   * concurrent callers never overshoot and a refused call counts nothing.
   */
  addUsageWithin(
    accountId: string,
    periodId: string,
    counter: UsageCounter,
    amount: number,
    limit: number,
  ): Promise<BoundedAdd>;
  readUsage(accountId: string, periodId: string): Promise<Record<string, number>>;
  /**
   * The limit the counter was last admitted against this month (every bounded add records it), or
   * null before the first one: how a caller without a key (the guidance worker) learns the budget.
   */
  recordedLimit(accountId: string, periodId: string, counter: UsageCounter): Promise<number | null>;
}

/** Usage counters outlive their month long enough for invoices and disputes. */
const USAGE_RETENTION_DAYS = 400;

export function createCounters(client: DocumentClient, tableName: string): Counters {
  const readCounter = async (accountId: string, periodId: string, counter: UsageCounter) => {
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: usageKey(accountId, periodId), ConsistentRead: true }),
    );
    return Number(Item?.[`used_${counter}`] ?? 0);
  };
  const usageTtl = () => ttlEpochSeconds(Date.now() + USAGE_RETENTION_DAYS * 86_400_000);
  return {
    async hitRateWindow(keyId, windowStartSeconds) {
      const { Attributes } = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: rateWindowKey(keyId, windowStartSeconds),
          UpdateExpression: 'ADD hits :one SET expires_at = if_not_exists(expires_at, :ttl)',
          ExpressionAttributeValues: { ':one': 1, ':ttl': windowStartSeconds + RATE_WINDOW_SECONDS * 2 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(Attributes?.hits ?? 1);
    },
    async addUsage(accountId, periodId, family, amount = 1) {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: usageKey(accountId, periodId),
          UpdateExpression: 'ADD #family :amount SET expires_at = if_not_exists(expires_at, :ttl)',
          ExpressionAttributeNames: { '#family': `used_${family}` },
          ExpressionAttributeValues: {
            ':amount': amount,
            ':ttl': usageTtl(),
          },
        }),
      );
    },
    async addUsageWithin(accountId, periodId, counter, amount, limit) {
      const ceiling = admissionCeiling(limit, amount);
      if (ceiling < 0) return { admitted: false, used: await readCounter(accountId, periodId, counter) };
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: usageKey(accountId, periodId),
            UpdateExpression:
              'ADD #counter :amount SET expires_at = if_not_exists(expires_at, :ttl), #limit = :limit',
            ConditionExpression: 'attribute_not_exists(#counter) OR #counter <= :ceiling',
            ExpressionAttributeNames: { '#counter': `used_${counter}`, '#limit': `limit_${counter}` },
            ExpressionAttributeValues: {
              ':amount': amount,
              ':ceiling': ceiling,
              ':ttl': usageTtl(),
              ':limit': limit,
            },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        return { admitted: true, used: Number(Attributes?.[`used_${counter}`] ?? amount) };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // Read after the refusal: the count the caller is told it reached (it only grows this month).
        return { admitted: false, used: await readCounter(accountId, periodId, counter) };
      }
    },
    async recordedLimit(accountId, periodId, counter) {
      const { Item } = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: usageKey(accountId, periodId),
          ConsistentRead: true,
          ProjectionExpression: '#limit',
          ExpressionAttributeNames: { '#limit': `limit_${counter}` },
        }),
      );
      const limit = Item?.[`limit_${counter}`];
      return limit === undefined ? null : Number(limit);
    },
    async readUsage(accountId, periodId) {
      const { Item } = await client.send(
        // Consistent: GET /v1/me must agree with what the quota just admitted.
        new GetCommand({ TableName: tableName, Key: usageKey(accountId, periodId), ConsistentRead: true }),
      );
      const usage: Record<string, number> = {};
      for (const [name, value] of Object.entries(Item ?? {})) {
        if (name.startsWith('used_')) usage[name.slice(5)] = Number(value);
      }
      return usage;
    },
  };
}
