import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import {
  type ApiKeyStore,
  accountKeyKey,
  apiKeyKey,
  fromFields,
  LAST_USED_RESOLUTION_MS,
} from './api-key-items.ts';

/** Authentication's access: a presented secret's item by its hash, and the hourly use stamp. */
export function createApiKeyAuthentication(
  client: DocumentClient,
  tableName: string,
): Pick<ApiKeyStore, 'findByHash' | 'touch'> {
  return {
    async findByHash(keyHash) {
      // Strongly consistent: a revoked or suspended key must stop working at once.
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: apiKeyKey(keyHash), ConsistentRead: true }),
      );
      if (!Item) return null;
      return { ...fromFields(Item), secretExpiresAt: (Item.secret_expires_at as string | null) ?? null };
    },

    async touch(keyHash, key, nowMs) {
      const now = new Date(nowMs).toISOString();
      const staleBefore = new Date(nowMs - LAST_USED_RESOLUTION_MS).toISOString();
      const stamp = (Key: Record<string, string>) =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key,
            UpdateExpression: 'SET last_used_at = :now',
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at = :null OR last_used_at < :stale)',
            ExpressionAttributeValues: { ':now': now, ':stale': staleBefore, ':null': null },
          }),
        );
      // Concurrent requests race to stamp the same hour: the condition lets one win, the rest are no-ops.
      await Promise.allSettled([stamp(apiKeyKey(keyHash)), stamp(accountKeyKey(key.accountId, key.keyId))]);
    },
  };
}
