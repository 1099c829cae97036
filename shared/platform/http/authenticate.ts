import {
  hashApiKey,
  type KeySecretRecord,
  keyModeOf,
  type Principal,
  secretRefusal,
} from '#shared/keys/domain/api-key.ts';
import type { Stage } from '../config.ts';
import { authUnavailable } from '../domain-errors.ts';
import { ApiError } from '../errors.ts';
import { logger } from '../observability.ts';

export type FindKey = (keyHash: string) => Promise<KeySecretRecord | null>;
/** Records that a key was used (hour-grained); never fails the request. */
export type TouchKey = (keyHash: string, key: KeySecretRecord, nowMs: number) => Promise<void>;

/** `last_used_at` is refreshed when older than this, so most requests stay a single read. */
const LAST_USED_REFRESH_MS = 60 * 60 * 1000;

/**
 * Spec section 5: the bearer key → the calling principal, or the exact failure code.
 * Keys live in the control plane both stages read, so the prefix rules are checked before any
 * lookup: a test key presented to production is named as such (403), a live key presented to the
 * sandbox is not recognized there (401, with a hint pointing at production).
 */
export async function authenticate(
  authorization: string | undefined,
  stage: Stage,
  findKey: FindKey,
  options: { nowMs?: number; touch?: TouchKey } = {},
): Promise<Principal> {
  if (!authorization) throw new ApiError('missing_api_key', 'The Authorization header is missing.');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) {
    throw new ApiError('missing_api_key', 'The Authorization header must read `Bearer <API_KEY>`.');
  }
  const presented = match[1] as string;
  const mode = keyModeOf(presented);
  if (mode === 'test' && stage === 'prod') {
    throw new ApiError('sandbox_key_on_production', 'A svc_test_ key was sent to the production API.');
  }
  if (mode === null || (mode === 'live' && stage === 'sandbox')) {
    throw new ApiError('invalid_api_key', 'The API key is not recognized.', {
      hint:
        mode === 'live'
          ? 'svc_live_ keys work against the production base URL; the sandbox takes svc_test_ keys'
          : undefined,
    });
  }

  const keyHash = hashApiKey(presented);
  let key: KeySecretRecord | null;
  try {
    key = await findKey(keyHash);
  } catch (error) {
    logger.error('Key store unavailable', { error });
    throw authUnavailable('The key could not be checked right now.');
  }
  if (!key) throw new ApiError('invalid_api_key', 'The API key is not recognized.');
  // A secret of the other mode (a seeded or imported item) is as unknown as a wrong key.
  if (key.mode !== mode) throw new ApiError('invalid_api_key', 'The API key is not recognized.');
  const nowMs = options.nowMs ?? Date.now();
  const refusal = secretRefusal(key, nowMs);
  if (refusal) throw new ApiError(refusal.code, refusal.detail);

  if (
    options.touch &&
    (key.lastUsedAt === null || Date.parse(key.lastUsedAt) < nowMs - LAST_USED_REFRESH_MS)
  ) {
    await options
      .touch(keyHash, key, nowMs)
      .catch((error: unknown) => logger.warn('last_used_at not recorded', { error }));
  }

  return {
    keyId: key.keyId,
    keyName: key.name,
    ownerType: key.ownerType,
    accountId: key.accountId,
    partnerId: key.partnerId,
    ownFleetId: key.fleetId,
    mode: key.mode,
    scopes: key.scopes,
    planName: key.planName,
    keyCreatedAt: key.createdAt,
  };
}
