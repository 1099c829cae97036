import { createHash, randomBytes } from 'node:crypto';
import type { Scope } from '#shared/kernel/access.ts';

export type KeyMode = 'live' | 'test';
export type KeyOwnerType = 'partner' | 'company';
export type KeyStatus = 'active' | 'revoked' | 'suspended';

export const KEY_PREFIX: Record<KeyMode, string> = { live: 'svc_live_', test: 'svc_test_' };

/** The secret part: 32 base62 characters, about 190 bits, so a plain SHA-256 is a safe stored form. */
const SECRET_LENGTH = 32;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = /^svc_(live|test)_[0-9A-Za-z]{32}$/;

export function generateApiKey(mode: KeyMode): string {
  // Rejection sampling keeps every character uniformly likely (256 is not a multiple of 62).
  let secret = '';
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += BASE62[byte % 62];
    }
  }
  return KEY_PREFIX[mode] + secret;
}

/** Keys are stored only as this hash; the plaintext is shown once, at creation. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The key's mode from its prefix, or null when it cannot be one of our keys at all. */
export function keyModeOf(key: string): KeyMode | null {
  const match = KEY_PATTERN.exec(key);
  return match ? (match[1] as KeyMode) : null;
}

export interface ApiKeyRecord {
  keyId: string;
  name: string;
  ownerType: KeyOwnerType;
  /** The customer account the key belongs to: the partner (`ptr_`) or the company (`cmp_`). */
  accountId: string;
  /** Set for partner keys. */
  partnerId: string | null;
  /** Set for company keys: the fleet the key acts on (live fleet, or the sandbox twin for test keys). */
  fleetId: string | null;
  mode: KeyMode;
  scopes: Scope[];
  status: KeyStatus;
  planName: string;
  createdAt: string;
  /** When the key itself stops working (set by its creator); null: never. */
  expiresAt: string | null;
  /** Why it was revoked (the owner's, or the operator's when production access was revoked). */
  revokedReason: string | null;
  /** Hour-grained: refreshed at most once an hour, so authentication stays one read. */
  lastUsedAt: string | null;
  /** Who created it: a `key_` id (an owner key) or `operator`. */
  createdBy: string;
}

/**
 * One secret of a key, as authentication finds it by hash: the key's record, plus when this
 * secret stops working (the previous secret of a rotated key; null for the current one).
 */
export interface KeySecretRecord extends ApiKeyRecord {
  secretExpiresAt: string | null;
}

/** The authenticated caller, as the HTTP chain hands it to handlers. */
export interface Principal {
  keyId: string;
  keyName: string;
  ownerType: KeyOwnerType;
  accountId: string;
  partnerId: string | null;
  ownFleetId: string | null;
  mode: KeyMode;
  scopes: readonly Scope[];
  planName: string;
  /** When the key was created (the health scorecard's key-age check). */
  keyCreatedAt: string;
}

/** Why a presented secret no longer works, or null while it does. */
export function secretRefusal(
  secret: Pick<KeySecretRecord, 'status' | 'expiresAt' | 'secretExpiresAt' | 'revokedReason'>,
  nowMs: number,
): { code: 'key_revoked' | 'key_suspended'; detail: string } | null {
  if (secret.status === 'revoked') {
    return {
      code: 'key_revoked',
      detail: secret.revokedReason
        ? `This API key has been revoked: ${secret.revokedReason}`
        : 'This API key has been revoked.',
    };
  }
  if (secret.expiresAt !== null && Date.parse(secret.expiresAt) <= nowMs) {
    return { code: 'key_revoked', detail: `This API key expired at ${secret.expiresAt}.` };
  }
  if (secret.secretExpiresAt !== null && Date.parse(secret.secretExpiresAt) <= nowMs) {
    return {
      code: 'key_revoked',
      detail: `This secret was replaced by a rotation and stopped working at ${secret.secretExpiresAt}; use the key's current secret.`,
    };
  }
  if (secret.status === 'suspended') return { code: 'key_suspended', detail: 'This API key is suspended.' };
  return null;
}

/** A key may be rotated while it works: not revoked and not past its own expiry. */
export function isRotatable(key: Pick<ApiKeyRecord, 'status' | 'expiresAt'>, nowMs: number): boolean {
  return key.status !== 'revoked' && (key.expiresAt === null || Date.parse(key.expiresAt) > nowMs);
}

/** The old secret's grace after a rotation (spec: as for webhook secrets, 24 hours). */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;
