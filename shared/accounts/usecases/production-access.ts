import { newId } from '#shared/kernel/ids.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import type { ApiKeyStore } from '#shared/keys/store/api-keys.ts';
import { setKeyStatus } from '#shared/keys/usecases/api-keys.ts';
import type { Plan } from '#shared/plans/domain/plans.ts';
import { ApiError, notFound } from '#shared/platform/errors.ts';
import { logger } from '#shared/platform/observability.ts';
import type { Page } from '#shared/table/cursor.ts';
import type { Account } from '../domain/account.ts';
import type { AuditLog } from '../domain/audit.ts';
import {
  decide,
  type ProductionAccessDecision,
  type ProductionAccessRequest,
  requestRefusal,
} from '../domain/production-access.ts';
import type { AccountStore } from '../store/accounts.ts';

export interface ProductionAccessDeps {
  accounts: AccountStore;
  apiKeys: ApiKeyStore;
  plans: { get(name: string): Promise<Plan | null> };
  audit: AuditLog;
  now: () => number;
  /**
   * Creates the company's production fleet (in the production stage's table) and answers its id;
   * called at the first approval only.
   */
  createLiveFleet(account: Account, at: string): Promise<string>;
}

export interface ProductionAccessInput {
  useCase: string;
  expectedVehicles: number;
  contactEmail: string;
}

async function companyAccount(deps: Pick<ProductionAccessDeps, 'accounts'>, accountId: string) {
  const account = await deps.accounts.get(accountId);
  if (!account) throw notFound(`Account ${accountId}`);
  if (account.type !== 'company') {
    throw new ApiError(
      'resource_conflict',
      'Production access is for company accounts; partners are onboarded by the operator.',
      {
        hint: 'partner keys are issued live by the operator',
      },
    );
  }
  return account;
}

/** POST /v1/production-access: a company owner asks (again, after a denial or a revocation). */
export async function requestProductionAccess(
  deps: Pick<ProductionAccessDeps, 'accounts' | 'audit' | 'now'>,
  keyId: string,
  accountId: string,
  input: ProductionAccessInput,
): Promise<ProductionAccessRequest> {
  const nowMs = deps.now();
  const account = await companyAccount(deps, accountId);
  const refusal = requestRefusal(account.productionAccess.status);
  if (refusal)
    throw new ApiError('resource_conflict', refusal, {
      hint: 'GET /v1/production-access shows where it stands',
    });
  const request: ProductionAccessRequest = {
    id: newId('productionAccess', nowMs),
    accountId,
    status: 'pending',
    useCase: input.useCase,
    expectedVehicles: input.expectedVehicles,
    contactEmail: input.contactEmail,
    requestedAt: formatTimestamp(nowMs),
    requestedBy: keyId,
    decidedAt: null,
    decidedBy: null,
    planName: null,
    reason: null,
  };
  if (!(await deps.accounts.fileRequest(request, account.productionAccess.status))) {
    throw new ApiError('resource_conflict', 'Another production-access request was filed at the same time.', {
      hint: 'GET /v1/production-access shows where it stands',
    });
  }
  await deps.audit.record({
    at: request.requestedAt,
    actor: { type: 'key', id: keyId },
    action: 'production_access.requested',
    accountId,
    target: { type: 'production_access', id: request.id },
    reason: null,
    details: { expected_vehicles: input.expectedVehicles, contact_email: input.contactEmail },
  });
  return request;
}

/** GET /v1/production-access: where the company's access stands, and its latest request. */
export async function describeProductionAccess(
  deps: Pick<ProductionAccessDeps, 'accounts'>,
  accountId: string,
): Promise<{ account: Account; request: ProductionAccessRequest | null }> {
  const account = await companyAccount(deps, accountId);
  const requestId = account.productionAccess.requestId;
  return { account, request: requestId ? await deps.accounts.getRequest(requestId) : null };
}

export function listProductionAccessRequests(
  deps: Pick<ProductionAccessDeps, 'accounts'>,
  status: ProductionAccessRequest['status'],
  limit: number,
  cursor: string | undefined,
): Promise<Page<ProductionAccessRequest>> {
  return deps.accounts.listRequests(status, limit, cursor);
}

/**
 * The operator's decision. Approval needs a known plan, becomes the account's plan and creates the
 * live fleet the first time; denial and revocation need a reason; revocation revokes every live key
 * of the company with that reason (its test keys and sandbox twin are untouched).
 */
export async function decideProductionAccess(
  deps: ProductionAccessDeps,
  operatorId: string,
  requestId: string,
  decision: ProductionAccessDecision,
  input: { plan?: string; reason?: string },
): Promise<ProductionAccessRequest> {
  const nowMs = deps.now();
  const at = formatTimestamp(nowMs);
  const request = await deps.accounts.getRequest(requestId);
  if (!request) throw notFound(`Production-access request ${requestId}`);
  if (decision === 'revoke' && request.status === 'revoked') {
    // Revoking again finishes a sweep an earlier revocation could not complete.
    await revokeLiveKeys(deps, operatorId, request.accountId, request.reason);
    return request;
  }
  if (decision !== 'approve' && !input.reason?.trim()) {
    throw new ApiError('validation_failed', `reason is required to ${decision} production access.`, {
      extensions: { errors: [{ field: 'reason', message: 'is required' }] },
    });
  }
  const outcome = decide(request, decision);
  if ('refusal' in outcome) throw new ApiError('resource_conflict', outcome.refusal);
  const planName = decision === 'approve' ? (input.plan ?? null) : request.planName;
  if (decision === 'approve' && (!planName || !(await deps.plans.get(planName)))) {
    throw new ApiError('validation_failed', `plan ${planName ?? '(missing)'} is not a plan.`, {
      extensions: {
        errors: [{ field: 'plan', message: 'must name an existing plan (GET /admin/v1/plans)' }],
      },
    });
  }
  const reason = decision === 'approve' ? null : (input.reason ?? null);
  const decided: ProductionAccessRequest = {
    ...request,
    status: outcome.status,
    decidedAt: at,
    decidedBy: operatorId,
    planName,
    reason,
  };

  const account = await companyAccount(deps, request.accountId);
  if (decision === 'approve' && !account.liveFleetId) {
    // Before the decision is stored: a crash here leaves a fleet and a pending request, and the
    // retry finds the fleet on the account instead of creating a second one. Two approvals racing:
    // the account keeps the first fleet set (the other, empty, is never pointed at).
    await deps.accounts.setLiveFleet(account.id, await deps.createLiveFleet(account, at));
  }
  if (
    !(await deps.accounts.decideRequest(decided, request.status, decision === 'approve' ? planName : null))
  ) {
    throw new ApiError('resource_conflict', `Request ${requestId} was decided meanwhile.`, {
      hint: 'read it again, then decide',
    });
  }
  await deps.audit.record({
    at,
    actor: { type: 'operator', id: operatorId },
    action: `production_access.${outcome.status}`,
    accountId: account.id,
    target: { type: 'production_access', id: requestId },
    reason,
    details: planName && decision === 'approve' ? { plan: planName } : {},
  });
  if (decision === 'revoke') await revokeLiveKeys(deps, operatorId, account.id, reason);
  return decided;
}

/**
 * Revokes every live key of the company, each on a fresh read (a key rotated meanwhile loses its
 * new secret too), going on past a key that fails. Live keys created from now on are refused (the
 * key is written only while access is approved). Keys left over make the call fail with 503 and the
 * same revoke, repeated, finishes the sweep.
 */
async function revokeLiveKeys(
  deps: ProductionAccessDeps,
  operatorId: string,
  accountId: string,
  reason: string | null,
) {
  const why = `production access revoked${reason ? `: ${reason}` : ''}`;
  const operator = { type: 'operator' as const, id: operatorId };
  let failed = 0;
  let cursor: string | undefined;
  do {
    const page = await deps.apiKeys.list(accountId, 100, cursor);
    for (const key of page.data) {
      if (key.mode !== 'live' || key.status === 'revoked') continue;
      await setKeyStatus(deps, operator, accountId, key.keyId, 'revoked', why).catch((error: unknown) => {
        failed += 1;
        logger.error('Live key not revoked with production access', { error, keyId: key.keyId });
      });
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  if (failed > 0) {
    throw new ApiError('storage_unavailable', `${failed} live keys could not be revoked yet.`, {
      hint: 'repeat the revoke: it finishes the keys left over',
    });
  }
}
