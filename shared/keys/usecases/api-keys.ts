import type { AuditLog } from '#shared/accounts/domain/audit.ts';
import type { AccountStore } from '#shared/accounts/store/accounts.ts';
import type { Scope } from '#shared/kernel/access.ts';
import { newId } from '#shared/kernel/ids.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { ApiError, notFound } from '#shared/platform/errors.ts';
import type { Page } from '#shared/table/cursor.ts';
import {
  type ApiKeyRecord,
  generateApiKey,
  hashApiKey,
  isRotatable,
  type KeyStatus,
  PREVIOUS_SECRET_GRACE_MS,
  type Principal,
} from '../domain/api-key.ts';
import { fleetForKey, type KeyRequest, keyCreationRefusal } from '../domain/key-policy.ts';
import type { ApiKeyStore, StoredKey } from '../store/api-keys.ts';

/** Who acts on keys: the operator, or an owner key (which cannot grant scopes it lacks). */
export type KeyActor =
  | { type: 'operator'; id: string }
  | { type: 'key'; id: string; scopes: readonly Scope[] };

export interface KeyDeps {
  apiKeys: ApiKeyStore;
  accounts: Pick<AccountStore, 'get'>;
  audit: AuditLog;
  now: () => number;
}

/** A key with its secret, as answered once: at creation and at rotation. */
export interface IssuedKey {
  key: ApiKeyRecord;
  secret: string;
}

const auditActor = (actor: KeyActor) => ({ type: actor.type, id: actor.id });

/** An owner key acting on its own account. */
export const ownerActor = (principal: Pick<Principal, 'keyId' | 'scopes'>): KeyActor => ({
  type: 'key',
  id: principal.keyId,
  scopes: principal.scopes,
});

/**
 * Creates a key on an account. The policy (owner type, partner-only scopes, the creator's scopes,
 * production access for live company keys) is pure in shared/keys/domain/key-policy.ts; the plan is
 * the account's unless the operator names one.
 */
export async function createKey(
  deps: KeyDeps,
  actor: KeyActor,
  accountId: string,
  request: KeyRequest & { planName?: string },
): Promise<IssuedKey> {
  const nowMs = deps.now();
  const account = await deps.accounts.get(accountId);
  if (!account) throw notFound(`Account ${accountId}`);
  const refusal = keyCreationRefusal(account, request, actor.type === 'key' ? actor.scopes : null, nowMs);
  if (refusal?.code === 'validation_failed') {
    throw new ApiError('validation_failed', `${refusal.field} ${refusal.message}.`, {
      extensions: { errors: [{ field: refusal.field, message: refusal.message }] },
    });
  }
  if (refusal?.code === 'insufficient_scope') {
    throw new ApiError('insufficient_scope', refusal.detail, {
      hint: 'create the key from a key that holds these scopes, or leave them out',
      extensions: { required_scope: refusal.missing.join(' ') },
    });
  }
  if (refusal) {
    throw new ApiError('production_access_required', refusal.detail, {
      hint: 'request production access with POST /v1/production-access; sandbox (test) keys are always allowed',
    });
  }
  const fleetId = fleetForKey(account, request.mode);
  if (account.type === 'company' && !fleetId) {
    // Approved access always comes with a live fleet; a company without a twin was created by hand.
    throw new ApiError(
      'resource_conflict',
      `Account ${accountId} has no ${request.mode} fleet to act on yet.`,
    );
  }
  const secret = generateApiKey(request.mode);
  const key: ApiKeyRecord = {
    keyId: newId('apiKey', nowMs),
    name: request.name,
    ownerType: account.type,
    accountId,
    partnerId: account.type === 'partner' ? account.id : null,
    fleetId,
    mode: request.mode,
    scopes: [...new Set(request.scopes)],
    status: 'active',
    planName: request.planName ?? account.planName,
    createdAt: formatTimestamp(nowMs),
    expiresAt: request.expiresAt,
    revokedReason: null,
    lastUsedAt: null,
    createdBy: actor.type === 'key' ? actor.id : 'operator',
  };
  const live = account.type === 'company' && request.mode === 'live';
  if (!(await deps.apiKeys.create(hashApiKey(secret), key, { requireApprovedAccount: live }))) {
    if (live && (await deps.accounts.get(accountId))?.productionAccess.status !== 'approved') {
      throw new ApiError(
        'production_access_required',
        'Production access was revoked while this key was being created.',
        {
          hint: 'request it with POST /v1/production-access; sandbox (test) keys are always allowed',
        },
      );
    }
    throw new ApiError('resource_conflict', 'A key with this id already exists; retry.');
  }
  await deps.audit.record({
    at: key.createdAt,
    actor: auditActor(actor),
    action: 'key.created',
    accountId,
    target: { type: 'key', id: key.keyId },
    reason: null,
    details: {
      name: key.name,
      mode: key.mode,
      scopes: key.scopes,
      plan: key.planName,
      expires_at: key.expiresAt,
    },
  });
  return { key, secret };
}

export function listKeys(
  deps: Pick<KeyDeps, 'apiKeys'>,
  accountId: string,
  limit: number,
  cursor: string | undefined,
): Promise<Page<StoredKey>> {
  return deps.apiKeys.list(accountId, limit, cursor);
}

/** The account's key, or 404: a key id of another account is not found, never forbidden. */
export async function accountKey(deps: Pick<KeyDeps, 'apiKeys'>, accountId: string, keyId: string) {
  const key = await deps.apiKeys.get(accountId, keyId);
  if (!key) throw notFound(`Key ${keyId}`);
  return key;
}

/**
 * A new secret for the key. The one it replaces keeps working for 24 hours (or stops now with
 * `expirePrevious`); an older previous secret stops at once. Revoked or expired keys → 409.
 */
export async function rotateKey(
  deps: KeyDeps,
  actor: KeyActor,
  accountId: string,
  keyId: string,
  options: { expirePrevious: boolean },
): Promise<IssuedKey & { previousSecretExpiresAt: string }> {
  const nowMs = deps.now();
  const previousSecretExpiresAt = formatTimestamp(
    nowMs + (options.expirePrevious ? 0 : PREVIOUS_SECRET_GRACE_MS),
  );
  const { key, secret } = await withFreshKey(deps, accountId, keyId, async (current) => {
    if (!isRotatable(current, nowMs)) {
      throw new ApiError(
        'resource_conflict',
        `Key ${keyId} is ${current.status === 'revoked' ? 'revoked' : 'expired'}; it cannot be rotated.`,
        { hint: 'create a new key with POST /v1/keys' },
      );
    }
    refuseBroaderKey(actor, current);
    const fresh = generateApiKey(current.mode);
    const rotated = await deps.apiKeys.rotate(current, hashApiKey(fresh), previousSecretExpiresAt, nowMs);
    return rotated ? { key: current, secret: fresh } : null;
  });
  await deps.audit.record({
    at: formatTimestamp(nowMs),
    actor: auditActor(actor),
    action: 'key.rotated',
    accountId,
    target: { type: 'key', id: keyId },
    reason: null,
    details: { previous_secret_expires_at: previousSecretExpiresAt },
  });
  const { currentHash: _current, previousHash: _previous, previousExpiresAt: _grace, ...record } = key;
  return { key: record, secret, previousSecretExpiresAt };
}

const STATUS_ACTIONS: Record<KeyStatus, string> = {
  active: 'key.unsuspended',
  suspended: 'key.suspended',
  revoked: 'key.revoked',
};

/**
 * Revokes, suspends or reinstates a key (every secret that still works follows at once). Revocation
 * is final: a revoked key is never reinstated (409); repeating the same change answers the key as it is.
 */
export async function setKeyStatus(
  deps: KeyDeps,
  actor: KeyActor,
  accountId: string,
  keyId: string,
  status: KeyStatus,
  reason: string | null,
): Promise<StoredKey> {
  const nowMs = deps.now();
  let unchanged: StoredKey | undefined;
  const changed = await withFreshKey(deps, accountId, keyId, async (key) => {
    if (key.status === status) {
      unchanged = key;
      return key;
    }
    if (key.status === 'revoked') {
      throw new ApiError('resource_conflict', `Key ${keyId} is revoked; revocation is final.`, {
        hint: 'create a new key',
      });
    }
    refuseBroaderKey(actor, key);
    return deps.apiKeys.setStatus(key, status, reason, nowMs);
  });
  if (unchanged) return unchanged;
  await deps.audit.record({
    at: formatTimestamp(nowMs),
    actor: auditActor(actor),
    action: STATUS_ACTIONS[status],
    accountId,
    target: { type: 'key', id: keyId },
    reason,
    details: {},
  });
  return changed;
}

/** Moves a key onto a plan (the operator's account plan change), on a fresh read if it changed. */
export async function setKeyPlan(
  deps: Pick<KeyDeps, 'apiKeys' | 'now'>,
  accountId: string,
  keyId: string,
  planName: string,
): Promise<void> {
  await withFreshKey(deps, accountId, keyId, async (key) =>
    key.planName === planName || (await deps.apiKeys.setPlan(key, planName, deps.now())) ? true : null,
  );
}

/** A change is retried on a freshly read key this many times when the key changed under it. */
const KEY_CHANGE_ATTEMPTS = 4;

/**
 * Reads the key and applies `change`, again on a fresh read while the store answers that the key
 * changed meanwhile (a concurrent rotation, revocation or suspension): each change then acts on
 * every secret the key has at that instant.
 */
async function withFreshKey<T>(
  deps: Pick<KeyDeps, 'apiKeys'>,
  accountId: string,
  keyId: string,
  change: (key: StoredKey) => Promise<T | null>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const done = await change(await accountKey(deps, accountId, keyId));
    if (done !== null) return done;
    if (attempt >= KEY_CHANGE_ATTEMPTS) {
      throw new ApiError('resource_conflict', `Key ${keyId} kept changing while this change was applied.`, {
        hint: 'read it again with GET /v1/keys, then retry',
      });
    }
  }
}

/**
 * An owner key acts only on keys it could have created: a narrower key cannot take over (rotate)
 * or lock out (revoke, suspend) a key holding scopes it lacks. The operator may act on any key.
 */
function refuseBroaderKey(actor: KeyActor, target: Pick<ApiKeyRecord, 'keyId' | 'scopes'>): void {
  if (actor.type !== 'key') return;
  const missing = target.scopes.filter((scope) => !actor.scopes.includes(scope));
  if (missing.length > 0) {
    throw new ApiError(
      'insufficient_scope',
      `Key ${target.keyId} holds scopes this key lacks: ${missing.join(', ')}.`,
      {
        hint: 'act on it from a key that holds every scope it holds',
        extensions: { required_scope: missing.join(' ') },
      },
    );
  }
}

/** The key an operator names by id alone: its account is looked up first. */
export async function accountOfKey(deps: Pick<KeyDeps, 'apiKeys'>, keyId: string): Promise<string> {
  const accountId = await deps.apiKeys.accountOf(keyId);
  if (!accountId) throw notFound(`Key ${keyId}`);
  return accountId;
}
