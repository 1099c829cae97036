import { type ApiKeyRecord, hashApiKey, keyModeOf, type Principal } from '../../domain/api-keys.ts';
import type { Stage } from '../config.ts';
import { ApiError } from '../errors.ts';
import { logger } from '../observability.ts';

export type FindKey = (keyHash: string) => Promise<ApiKeyRecord | null>;

/**
 * Spec section 5: the bearer key → the calling principal, or the exact failure code.
 * Keys live in their stage's own table, so a live key presented to the sandbox is simply not
 * recognized there; a test key presented to production is named as such (403) before any lookup.
 */
export async function authenticate(
  authorization: string | undefined,
  stage: Stage,
  findKey: FindKey,
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

  let key: ApiKeyRecord | null;
  try {
    key = await findKey(hashApiKey(presented));
  } catch (error) {
    logger.error('Key store unavailable', { error });
    throw new ApiError('auth_unavailable', 'The key could not be checked right now.');
  }
  if (!key) throw new ApiError('invalid_api_key', 'The API key is not recognized.');
  if (key.status === 'revoked') throw new ApiError('key_revoked', 'This API key has been revoked.');
  if (key.status === 'suspended') throw new ApiError('key_suspended', 'This API key is suspended.');

  return {
    keyId: key.keyId,
    keyName: key.name,
    ownerType: key.ownerType,
    partnerId: key.partnerId,
    ownFleetId: key.fleetId,
    mode: key.mode,
    scopes: key.scopes,
    planName: key.planName,
    keyCreatedAt: key.createdAt,
  };
}
