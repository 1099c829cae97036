import type { Account } from '#shared/accounts/domain/account.ts';
import { PARTNER_ONLY_SCOPES, type Scope } from '#shared/kernel/access.ts';
import type { KeyMode, KeyOwnerType } from './api-key.ts';

export interface KeyRequest {
  ownerType: KeyOwnerType;
  name: string;
  scopes: readonly Scope[];
  mode: KeyMode;
  expiresAt: string | null;
}

export type KeyRefusal =
  | { code: 'validation_failed'; field: 'owner_type' | 'scopes' | 'expires_at'; message: string }
  | { code: 'insufficient_scope'; detail: string; missing: Scope[] }
  | { code: 'production_access_required'; detail: string };

/**
 * Why this key may not be created, or null. `creatorScopes` is the owner key's scopes (a key
 * cannot grant what its creator lacks); the operator passes null and may grant any scope the
 * account type allows.
 */
export function keyCreationRefusal(
  account: Pick<Account, 'type' | 'productionAccess'>,
  request: KeyRequest,
  creatorScopes: readonly Scope[] | null,
  nowMs: number,
): KeyRefusal | null {
  if (request.ownerType !== account.type) {
    return {
      code: 'validation_failed',
      field: 'owner_type',
      message: `must be ${account.type}: keys belong to the caller's ${account.type} account`,
    };
  }
  const partnerOnly = request.scopes.filter((scope) => PARTNER_ONLY_SCOPES.includes(scope));
  if (account.type === 'company' && partnerOnly.length > 0) {
    return {
      code: 'validation_failed',
      field: 'scopes',
      message: `${partnerOnly.join(', ')} is for partner keys only; a company key can never hold it`,
    };
  }
  if (request.expiresAt !== null && Date.parse(request.expiresAt) <= nowMs) {
    return { code: 'validation_failed', field: 'expires_at', message: 'must be in the future' };
  }
  if (creatorScopes) {
    const missing = request.scopes.filter((scope) => !creatorScopes.includes(scope));
    if (missing.length > 0) {
      return {
        code: 'insufficient_scope',
        detail: `A key cannot grant scopes its creator lacks: ${missing.join(', ')}.`,
        missing,
      };
    }
  }
  if (
    account.type === 'company' &&
    request.mode === 'live' &&
    account.productionAccess.status !== 'approved'
  ) {
    return {
      code: 'production_access_required',
      detail:
        account.productionAccess.status === 'revoked'
          ? `Production access was revoked${account.productionAccess.reason ? `: ${account.productionAccess.reason}` : ''}; live keys cannot be created.`
          : 'Live keys need approved production access; sandbox (test) keys are always allowed.',
    };
  }
  return null;
}

/** The fleet a company key acts on: the live fleet for live keys, the sandbox twin for test keys. */
export function fleetForKey(
  account: Pick<Account, 'type' | 'liveFleetId' | 'sandboxFleetId'>,
  mode: KeyMode,
) {
  if (account.type !== 'company') return null;
  return mode === 'live' ? account.liveFleetId : account.sandboxFleetId;
}
