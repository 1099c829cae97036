import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { ttlEpochSeconds } from '#shared/table/table.ts';
import { conditionalTransaction } from '#shared/table/transactions.ts';
import {
  type ApiKeyStore,
  accountKeyKey,
  apiKeyKey,
  SECRET_ITEM_LINGER_MS,
  SECRET_ITEM_SAFE_MS,
  toFields,
  versioned,
} from './api-key-items.ts';

/**
 * A key's rotation: the new secret's item, the key item pointing at it, the replaced secret given
 * its grace period and an older one stopped, in one transaction conditioned on the key's version.
 */
export function createApiKeyRotation(client: DocumentClient, tableName: string): Pick<ApiKeyStore, 'rotate'> {
  return {
    async rotate(key, newHash, previousExpiresAt, nowMs) {
      const fields = toFields(key);
      const older = key.previousHash;
      return conditionalTransaction(
        client,
        [
          {
            Update: {
              TableName: tableName,
              Key: accountKeyKey(key.accountId, key.keyId),
              UpdateExpression:
                'SET current_hash = :new, previous_hash = :old, previous_expires_at = :grace, version = :next',
              // The version read: the new secret's item below copies a status and plan that are
              // therefore still the key's (a suspension meanwhile makes this rotation fail).
              ConditionExpression: `${versioned(key).condition} AND #status <> :revoked`,
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: {
                ':new': newHash,
                ':old': key.currentHash,
                ':grace': previousExpiresAt,
                ':revoked': 'revoked',
                ...versioned(key).values,
              },
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: { ...apiKeyKey(newHash), ...fields, secret_expires_at: null },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: tableName,
              Key: apiKeyKey(key.currentHash),
              UpdateExpression: 'SET secret_expires_at = :grace, expires_at = :ttl',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: {
                ':grace': previousExpiresAt,
                ':ttl': ttlEpochSeconds(Date.parse(previousExpiresAt) + SECRET_ITEM_LINGER_MS),
              },
            },
          },
          // Only the secret just replaced gets a grace period; an older one stops now (its item is
          // kept, so the secret answers "replaced", not "unknown", until DynamoDB's TTL removes it).
          ...(older &&
          key.previousExpiresAt &&
          Date.parse(key.previousExpiresAt) + SECRET_ITEM_SAFE_MS > nowMs
            ? [
                {
                  Update: {
                    TableName: tableName,
                    Key: apiKeyKey(older),
                    UpdateExpression: 'SET secret_expires_at = :stop',
                    ConditionExpression: 'attribute_exists(pk)',
                    ExpressionAttributeValues: {
                      ':stop': new Date(Math.min(nowMs, Date.parse(key.previousExpiresAt))).toISOString(),
                    },
                  },
                },
              ]
            : []),
        ],
        { orConflict: true },
      );
    },
  };
}
