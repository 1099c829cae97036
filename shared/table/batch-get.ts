import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from './dynamo-client.ts';

/** BatchGetItem's limit of keys per call. */
const BATCH_GET_MAX_KEYS = 100;

/**
 * The items of `keys` that exist, in calls of 100 keys run side by side. Keys DynamoDB leaves
 * unprocessed (throttling) are asked for again with a growing pause; keys still unprocessed after
 * `maxRounds` fail the read rather than pass for items that do not exist.
 */
export async function batchGetItems(
  client: DocumentClient,
  tableName: string,
  keys: readonly Record<string, unknown>[],
  options: { maxRounds?: number; what?: string } = {},
): Promise<Record<string, unknown>[]> {
  const calls: Promise<Record<string, unknown>[]>[] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_MAX_KEYS) {
    calls.push(batchOf(client, tableName, keys.slice(start, start + BATCH_GET_MAX_KEYS), options));
  }
  return (await Promise.all(calls)).flat();
}

async function batchOf(
  client: DocumentClient,
  tableName: string,
  keys: Record<string, unknown>[],
  { maxRounds = 5, what = 'keys' }: { maxRounds?: number; what?: string },
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let pending = keys;
  for (let round = 1; pending.length > 0; round++) {
    if (round > maxRounds) {
      throw new Error(`BatchGetItem left ${pending.length} ${what} unprocessed after ${round - 1} rounds`);
    }
    if (round > 1) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** round));
    const { Responses, UnprocessedKeys } = await client.send(
      new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }),
    );
    items.push(...(Responses?.[tableName] ?? []));
    pending = (UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
  }
  return items;
}
