import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord, KeySecretRecord, KeyStatus } from '../domain/api-keys.ts';
import { accountKey } from './accounts.ts';
import type { CursorCodec, Page } from './cursor.ts';
import type { DocumentClient } from './dynamo-client.ts';
import { ttlEpochSeconds } from './table.ts';
import { isConditionFailure, isTransactionConflict } from './transactions.ts';

/**
 * API keys in the control-plane table, three items per key:
 * - `APIKEY#<sha256>`: one per live secret, the whole record, so authentication is one GetItem on
 *   the hash of the presented secret. A rotated-out secret keeps its item until its grace ends.
 * - `ACCOUNT#<account>` / `KEY#<key id>`: the key as its owner lists it, with the hashes of its
 *   current and previous secret, so a status change reaches every secret in one transaction.
 * - `KEYID#<key id>`: which account a key belongs to, for the operator who only has the id.
 */
export const apiKeyKey = (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' });
export const accountKeyKey = (accountId: string, keyId: string) => ({
  pk: `ACCOUNT#${accountId}`,
  sk: `KEY#${keyId}`,
});
export const keyIdKey = (keyId: string) => ({ pk: `KEYID#${keyId}`, sk: 'KEYID' });

/** A key as the control plane holds it: the record plus where its secrets are. */
export interface StoredKey extends ApiKeyRecord {
  currentHash: string;
  previousHash: string | null;
  previousExpiresAt: string | null;
  /**
   * Bumped by every change (rotation, status, plan). Each change is conditioned on the version it
   * read, so a revocation can never miss the secret a concurrent rotation just added.
   */
  version: number;
}

/** A rotated-out secret's item lingers a week past its grace (TTL), then DynamoDB removes it. */
const SECRET_ITEM_LINGER_MS = 7 * 24 * 60 * 60 * 1000;
/** Before this much of the linger has passed, the item surely still exists (TTL never deletes early). */
const SECRET_ITEM_SAFE_MS = 6 * 24 * 60 * 60 * 1000;

/** `last_used_at` is refreshed at most this often, so authentication stays a single read. */
const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;

interface RecordFields {
  key_id: string;
  name: string;
  owner_type: ApiKeyRecord['ownerType'];
  account_id: string;
  partner_id: string | null;
  fleet_id: string | null;
  mode: ApiKeyRecord['mode'];
  scopes: string[];
  status: KeyStatus;
  plan_name: string;
  created_at: string;
  key_expires_at: string | null;
  revoked_reason: string | null;
  last_used_at: string | null;
  created_by: string;
}

function toFields(key: ApiKeyRecord): RecordFields {
  return {
    key_id: key.keyId,
    name: key.name,
    owner_type: key.ownerType,
    account_id: key.accountId,
    partner_id: key.partnerId,
    fleet_id: key.fleetId,
    mode: key.mode,
    scopes: [...key.scopes],
    status: key.status,
    plan_name: key.planName,
    created_at: key.createdAt,
    key_expires_at: key.expiresAt,
    revoked_reason: key.revokedReason,
    last_used_at: key.lastUsedAt,
    created_by: key.createdBy,
  };
}

function fromFields(item: Record<string, unknown>): ApiKeyRecord {
  const i = item as unknown as RecordFields;
  return {
    keyId: i.key_id,
    name: i.name,
    ownerType: i.owner_type,
    accountId: i.account_id,
    partnerId: i.partner_id ?? null,
    fleetId: i.fleet_id ?? null,
    mode: i.mode,
    scopes: i.scopes as ApiKeyRecord['scopes'],
    status: i.status,
    planName: i.plan_name,
    createdAt: i.created_at,
    expiresAt: i.key_expires_at ?? null,
    revokedReason: i.revoked_reason ?? null,
    lastUsedAt: i.last_used_at ?? null,
    createdBy: i.created_by ?? 'operator',
  };
}

function fromKeyItem(item: Record<string, unknown>): StoredKey {
  return {
    ...fromFields(item),
    currentHash: item.current_hash as string,
    previousHash: (item.previous_hash as string | null | undefined) ?? null,
    previousExpiresAt: (item.previous_expires_at as string | null | undefined) ?? null,
    version: (item.version as number | undefined) ?? 0,
  };
}

/** The key item's update, conditioned on the version read and bumping it. */
function versioned(key: StoredKey): { condition: string; values: Record<string, number> } {
  return {
    condition: key.version === 0 ? '(attribute_not_exists(version) OR version = :seen)' : 'version = :seen',
    values: { ':seen': key.version, ':next': key.version + 1 },
  };
}

export interface ApiKeyStore {
  findByHash(keyHash: string): Promise<KeySecretRecord | null>;
  /**
   * Writes a new key with its first secret; false when the key id is taken or, with
   * `requireApprovedAccount`, the account's production access is not approved at that instant.
   */
  create(
    keyHash: string,
    key: ApiKeyRecord,
    options?: { requireApprovedAccount?: boolean },
  ): Promise<boolean>;
  get(accountId: string, keyId: string): Promise<StoredKey | null>;
  /** The account a key id belongs to (operator calls name keys by id alone). */
  accountOf(keyId: string): Promise<string | null>;
  list(accountId: string, limit: number, cursor: string | undefined): Promise<Page<StoredKey>>;
  /**
   * Makes `newHash` the key's secret; the secret it replaces works until `previousExpiresAt`, and
   * an older previous secret stops at once. False when the key changed meanwhile (a concurrent
   * rotation or revocation): nothing was written.
   */
  rotate(key: StoredKey, newHash: string, previousExpiresAt: string, nowMs: number): Promise<boolean>;
  /**
   * Status (and, when revoking, the reason) on the key and every secret that still works; null when
   * the key changed since it was read (nothing written: read it again and retry).
   */
  setStatus(
    key: StoredKey,
    status: KeyStatus,
    reason: string | null,
    nowMs: number,
  ): Promise<StoredKey | null>;
  /** Like setStatus: false when the key changed since it was read. */
  setPlan(key: StoredKey, planName: string, nowMs: number): Promise<boolean>;
  /** Records use, at most once an hour (concurrent stamps: one wins); never fails the caller. */
  touch(keyHash: string, key: KeySecretRecord, nowMs: number): Promise<void>;
}

export function createApiKeyStore(
  client: DocumentClient,
  tableName: string,
  cursors?: CursorCodec,
): ApiKeyStore {
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
    try {
      await client.send(
        new TransactWriteCommand({
          TransactItems: [
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
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error) || isTransactionConflict(error)) return false;
      throw error;
    }
  };

  /** The secret items a change must reach: the current one, and the previous one while it works. */
  const liveSecretHashes = (key: StoredKey, nowMs: number) => [
    key.currentHash,
    ...(key.previousHash && key.previousExpiresAt && Date.parse(key.previousExpiresAt) > nowMs
      ? [key.previousHash]
      : []),
  ];

  return {
    async findByHash(keyHash) {
      // Strongly consistent: a revoked or suspended key must stop working at once.
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: apiKeyKey(keyHash), ConsistentRead: true }),
      );
      if (!Item) return null;
      return { ...fromFields(Item), secretExpiresAt: (Item.secret_expires_at as string | null) ?? null };
    },

    async create(keyHash, key, options = {}) {
      const fields = toFields(key);
      try {
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
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
            ],
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    async get(accountId, keyId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: accountKeyKey(accountId, keyId), ConsistentRead: true }),
      );
      return Item ? fromKeyItem(Item) : null;
    },

    async accountOf(keyId) {
      const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keyIdKey(keyId) }));
      return (Item?.account_id as string | undefined) ?? null;
    },

    async list(accountId, limit, cursor) {
      if (!cursors) throw new Error('createApiKeyStore needs a cursor codec to list keys');
      const scope = `keys:${accountId}`;
      const { Items = [], LastEvaluatedKey } = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :key)',
          ExpressionAttributeValues: { ':pk': `ACCOUNT#${accountId}`, ':key': 'KEY#' },
          Limit: limit,
          ConsistentRead: true,
          ExclusiveStartKey: cursor ? cursors.decode(scope, cursor) : undefined,
        }),
      );
      return {
        data: Items.map(fromKeyItem),
        next_cursor: LastEvaluatedKey ? cursors.encode(scope, LastEvaluatedKey) : null,
      };
    },

    async rotate(key, newHash, previousExpiresAt, nowMs) {
      const fields = toFields(key);
      const older = key.previousHash;
      try {
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
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
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error) || isTransactionConflict(error)) return false;
        throw error;
      }
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
