import { createHash, randomBytes } from 'node:crypto';
import type { Scope } from './access.ts';

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
  /** Set for partner keys. */
  partnerId: string | null;
  /** Set for company keys: the fleet the key acts on (live fleet, or the sandbox twin for test keys). */
  fleetId: string | null;
  mode: KeyMode;
  scopes: Scope[];
  status: KeyStatus;
  planName: string;
  createdAt: string;
}

/** The authenticated caller, as the HTTP chain hands it to handlers. */
export interface Principal {
  keyId: string;
  keyName: string;
  ownerType: KeyOwnerType;
  partnerId: string | null;
  ownFleetId: string | null;
  mode: KeyMode;
  scopes: readonly Scope[];
  planName: string;
  /** When the key was created (the health scorecard's key-age check); absent where unknown. */
  keyCreatedAt?: string;
}

/** Monthly usage is counted per customer account: the partner, or the company's fleet. */
export function accountIdOf(principal: Pick<Principal, 'partnerId' | 'ownFleetId' | 'keyId'>): string {
  return principal.partnerId ?? principal.ownFleetId ?? principal.keyId;
}
