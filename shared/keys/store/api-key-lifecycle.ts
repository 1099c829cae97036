import { accountKey } from '#shared/accounts/store/accounts.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { conditionalTransaction } from '#shared/table/transactions.ts';
import {
  type ApiKeyStore,
  accountKeyKey,
  apiKeyKey,
  keyIdKey,
  type StoredKey,
  toFields,
  versioned,
} from './api-key-items.ts';

/**
 * A key's lifecycle: created with its first secret, suspended or revoked, moved to another plan;
 * each a transaction over the key item and its live secrets' items (rotation: api-key-rotation.ts).
 */
export function createApiKeyLifecycle(
  client: DocumentClient,
  tableName: string,
): Pick<ApiKeyStore, 'create' | 'setStatus' | 'setPlan'> {
  /**
   * One change to the key item (conditioned on its version, which it bumps) and to every secret
   * that still works, in one transaction; false when the key changed since it was read (or another
   * write to it was in flight): the caller reads it again and retries.
   */
  const changeKey = async (
    key: StoredKey,
    nowMs: number,
    update: string,
    expression: { names?: Record<string, string>; values: Record<string, unknown> },
  ): Promise<boolean> => {
    const secret = (hash: string) => ({
      Update: {
        TableName: tableName,
        Key: apiKeyKey(hash),
        UpdateExpression: update,
        ConditionExpression: 'attribute_exists(pk)',
        ...(expression.names ? { ExpressionAttributeNames: expression.names } : {}),
        ExpressionAttributeValues: expression.values,
      },
    });
    return conditionalTransaction(
      client,
      [
        {
          Update: {
            TableName: tableName,
            Key: accountKeyKey(key.accountId, key.keyId),
            UpdateExpression: `${update}, version = :next`,
            ConditionExpression: versioned(key).condition,
            ...(expression.names ? { ExpressionAttributeNames: expression.names } : {}),
            ExpressionAttributeValues: { ...expression.values, ...versioned(key).values },
          },
        },
        ...liveSecretHashes(key, nowMs).map(secret),
      ],
      { orConflict: true },
    );
  };

  /** The secret items a change must reach: the current one, and the previous one while it works. */
  const liveSecretHashes = (key: StoredKey, nowMs: number) => [
    key.currentHash,
    ...(key.previousHash && key.previousExpiresAt && Date.parse(key.previousExpiresAt) > nowMs
      ? [key.previousHash]
      : []),
  ];

  return {
    async create(keyHash, key, options = {}) {
      const fields = toFields(key);
      return conditionalTransaction(client, [
        {
          Put: {
            TableName: tableName,
            Item: { ...apiKeyKey(keyHash), ...fields, secret_expires_at: null },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: tableName,
            Item: {
              ...accountKeyKey(key.accountId, key.keyId),
              ...fields,
              current_hash: keyHash,
              previous_hash: null,
              previous_expires_at: null,
              version: 1,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: tableName,
            Item: { ...keyIdKey(key.keyId), account_id: key.accountId },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        // A live key and a revocation of production access racing: the key is written only
        // while access is approved, so the revocation's sweep cannot miss it.
        ...(options.requireApprovedAccount
          ? [
              {
                ConditionCheck: {
                  TableName: tableName,
                  Key: accountKey(key.accountId),
                  ConditionExpression: 'production_access.#status = :approved',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: { ':approved': 'approved' },
                },
              },
            ]
          : []),
      ]);
    },

    async setStatus(key, status, reason, nowMs) {
      const revokedReason = status === 'revoked' ? reason : null;
      const changed = await changeKey(key, nowMs, 'SET #status = :status, revoked_reason = :reason', {
        names: { '#status': 'status' },
        values: { ':status': status, ':reason': revokedReason },
      });
      return changed ? { ...key, status, revokedReason, version: key.version + 1 } : null;
    },

    setPlan(key, planName, nowMs) {
      return changeKey(key, nowMs, 'SET plan_name = :plan', { values: { ':plan': planName } });
    },
  };
}
