import type { Scope } from '#shared/kernel/access.ts';
import type { KeyMode, KeyOwnerType, KeyStatus } from '#shared/keys/domain/api-key.ts';
import type { StoredKey } from '#shared/keys/store/api-keys.ts';
import {
  accountOfKey,
  createKey,
  type IssuedKey,
  type KeyDeps,
  setKeyStatus,
} from '#shared/keys/usecases/api-keys.ts';
import { type OperatorAccountDeps, requireKnownPlan } from './operator-accounts.ts';

export interface OperatorKeyRequest {
  ownerType: KeyOwnerType;
  accountId: string;
  planName: string;
  scopes: readonly Scope[];
  name: string;
  mode: KeyMode;
  expiresAt: string | null;
}

/**
 * POST /admin/v1/keys: any scope the account type allows, on a named (existing) plan. A company's
 * live key still needs approved production access: the operator approves it, not bypasses it.
 */
export async function createOperatorKey(
  deps: KeyDeps & Pick<OperatorAccountDeps, 'plans'>,
  operatorId: string,
  request: OperatorKeyRequest,
): Promise<IssuedKey> {
  await requireKnownPlan(deps, request.planName);
  return createKey(deps, { type: 'operator', id: operatorId }, request.accountId, {
    ownerType: request.ownerType,
    name: request.name,
    scopes: request.scopes,
    mode: request.mode,
    expiresAt: request.expiresAt,
    planName: request.planName,
  });
}

/** Suspend, unsuspend or revoke a key named by id alone (404 for an unknown id, 409 once revoked). */
export async function setKeyStatusById(
  deps: KeyDeps,
  operatorId: string,
  keyId: string,
  status: KeyStatus,
  reason: string | null,
): Promise<StoredKey> {
  const accountId = await accountOfKey(deps, keyId);
  return setKeyStatus(deps, { type: 'operator', id: operatorId }, accountId, keyId, status, reason);
}
