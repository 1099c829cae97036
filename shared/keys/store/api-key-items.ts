import type { Page } from '#shared/table/cursor.ts';
import type { ApiKeyRecord, KeySecretRecord, KeyStatus } from '../domain/api-key.ts';

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
export const SECRET_ITEM_LINGER_MS = 7 * 24 * 60 * 60 * 1000;
/** Before this much of the linger has passed, the item surely still exists (TTL never deletes early). */
export const SECRET_ITEM_SAFE_MS = 6 * 24 * 60 * 60 * 1000;

/** `last_used_at` is refreshed at most this often, so authentication stays a single read. */
export const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;

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

export function toFields(key: ApiKeyRecord): RecordFields {
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

export function fromFields(item: Record<string, unknown>): ApiKeyRecord {
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

export function fromKeyItem(item: Record<string, unknown>): StoredKey {
  return {
    ...fromFields(item),
    currentHash: item.current_hash as string,
    previousHash: (item.previous_hash as string | null | undefined) ?? null,
    previousExpiresAt: (item.previous_expires_at as string | null | undefined) ?? null,
    version: (item.version as number | undefined) ?? 0,
  };
}

/** The key item's update, conditioned on the version read and bumping it. */
export function versioned(key: StoredKey): { condition: string; values: Record<string, number> } {
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
