import { type Account, NO_PRODUCTION_ACCESS, SANDBOX_PLAN } from '#shared/accounts/domain/account.ts';
import type { AuditLog } from '#shared/accounts/domain/audit.ts';
import type { AccountStore } from '#shared/accounts/store/accounts.ts';
import { type Fleet, newCompanyFleet } from '#shared/fleets/domain/fleet.ts';
import { COMPANY_SCOPES, SCOPES } from '#shared/kernel/access.ts';
import { newId } from '#shared/kernel/ids.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import type { ApiKeyStore } from '#shared/keys/store/api-keys.ts';
import { createKey, type IssuedKey, type KeyDeps, setKeyPlan } from '#shared/keys/usecases/api-keys.ts';
import type { Plan } from '#shared/plans/domain/plans.ts';
import { ApiError, notFound } from '#shared/platform/errors.ts';

/** The plan a new partner starts on until the operator sets another (PUT /admin/v1/accounts/{id}/plan). */
export const PARTNER_STARTING_PLAN = 'starter';

export interface OperatorAccountDeps extends KeyDeps {
  accounts: Pick<AccountStore, 'get' | 'create' | 'setPlan'>;
  apiKeys: ApiKeyStore;
  plans: { get(name: string): Promise<Plan | null> };
  audit: AuditLog;
  /** The sandbox stage's fleets: a new company's twin is written there, never to production's table. */
  sandboxFleets: { putCompanyFleet(fleet: Fleet): Promise<void> };
  /** Gives the new sandbox twin its three simulated trucks (the sandbox simulator's provisioning). */
  provisionSimulatedTrucks: (fleetId: string) => Promise<void>;
}

/** An account with its first owner key, whose secret is answered once. */
export interface OnboardedAccount {
  account: Account;
  key: IssuedKey;
}

/** 422 on `field` unless the plan exists: a key or an account on a missing plan could never be served. */
export async function requireKnownPlan(
  deps: Pick<OperatorAccountDeps, 'plans'>,
  name: string,
  field = 'plan',
): Promise<Plan> {
  const plan = await deps.plans.get(name);
  if (!plan) {
    throw new ApiError('validation_failed', `${field} ${name} is not a plan.`, {
      hint: 'GET /admin/v1/plans lists them; PUT /admin/v1/plans/{name} creates one',
      extensions: { errors: [{ field, message: 'must name an existing plan (GET /admin/v1/plans)' }] },
    });
  }
  return plan;
}

async function createAccount(deps: OperatorAccountDeps, account: Account) {
  if (!(await deps.accounts.create(account))) {
    throw new ApiError('resource_conflict', `Account ${account.id} already exists; retry.`);
  }
}

/** POST /admin/v1/partners: the partner account and its first owner key (live, every partner scope). */
export async function createPartner(
  deps: OperatorAccountDeps,
  operatorId: string,
  input: { name: string; contactEmail: string; planName?: string },
): Promise<OnboardedAccount> {
  const nowMs = deps.now();
  const planName = input.planName ?? PARTNER_STARTING_PLAN;
  await requireKnownPlan(deps, planName);
  const account: Account = {
    id: newId('partner', nowMs),
    type: 'partner',
    name: input.name,
    contactEmail: input.contactEmail,
    timezone: null,
    planName,
    liveFleetId: null,
    sandboxFleetId: null,
    productionAccess: NO_PRODUCTION_ACCESS,
    createdAt: formatTimestamp(nowMs),
  };
  await createAccount(deps, account);
  await recordAccountCreated(deps, operatorId, account);
  const key = await createKey(deps, { type: 'operator', id: operatorId }, account.id, {
    ownerType: 'partner',
    name: 'Owner key',
    scopes: SCOPES,
    mode: 'live',
    expiresAt: null,
  });
  return { account, key };
}

/**
 * POST /admin/v1/companies: the company on the sandbox plan, its sandbox twin (in the sandbox
 * table) with the simulator's trucks, and its first owner key (test, every company scope). Live
 * keys wait for approved production access, which creates the live fleet.
 */
export async function createCompany(
  deps: OperatorAccountDeps,
  operatorId: string,
  input: { name: string; timezone: string; contactEmail: string },
): Promise<OnboardedAccount> {
  const nowMs = deps.now();
  const at = formatTimestamp(nowMs);
  await requireKnownPlan(deps, SANDBOX_PLAN);
  // The twin first: an account never points at a fleet that was not written.
  const sandboxFleetId = newId('fleet', nowMs);
  await deps.sandboxFleets.putCompanyFleet(
    newCompanyFleet(
      {
        id: sandboxFleetId,
        name: input.name,
        externalRef: null,
        contactEmail: input.contactEmail,
        timezone: input.timezone,
      },
      at,
    ),
  );
  const account: Account = {
    id: newId('company', nowMs),
    type: 'company',
    name: input.name,
    contactEmail: input.contactEmail,
    timezone: input.timezone,
    planName: SANDBOX_PLAN,
    liveFleetId: null,
    sandboxFleetId,
    productionAccess: NO_PRODUCTION_ACCESS,
    createdAt: at,
  };
  await createAccount(deps, account);
  await recordAccountCreated(deps, operatorId, account);
  await deps.provisionSimulatedTrucks(sandboxFleetId);
  const key = await createKey(deps, { type: 'operator', id: operatorId }, account.id, {
    ownerType: 'company',
    name: 'Owner key',
    scopes: COMPANY_SCOPES,
    mode: 'test',
    expiresAt: null,
  });
  return { account, key };
}

function recordAccountCreated(
  deps: Pick<OperatorAccountDeps, 'audit'>,
  operatorId: string,
  account: Account,
) {
  return deps.audit.record({
    at: account.createdAt,
    actor: { type: 'operator', id: operatorId },
    action: `${account.type}.created`,
    accountId: account.id,
    target: { type: 'account', id: account.id },
    reason: null,
    details: {
      name: account.name,
      plan: account.planName,
      ...(account.sandboxFleetId ? { sandbox_fleet_id: account.sandboxFleetId } : {}),
    },
  });
}

/**
 * PUT /admin/v1/accounts/{id}/plan: the account's plan, and every key of the account moved onto
 * it (keys carry their plan so the HTTP chain reads one item per request).
 */
export async function setAccountPlan(
  deps: OperatorAccountDeps,
  operatorId: string,
  accountId: string,
  planName: string,
): Promise<{ account: Account; keysMoved: number }> {
  const nowMs = deps.now();
  const before = await deps.accounts.get(accountId);
  if (!before) throw notFound(`Account ${accountId}`);
  await requireKnownPlan(deps, planName);
  if (!(await deps.accounts.setPlan(accountId, planName))) throw notFound(`Account ${accountId}`);
  let keysMoved = 0;
  let cursor: string | undefined;
  do {
    const page = await deps.apiKeys.list(accountId, 100, cursor);
    for (const key of page.data) {
      await setKeyPlan(deps, accountId, key.keyId, planName);
      keysMoved += 1;
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  await deps.audit.record({
    at: formatTimestamp(nowMs),
    actor: { type: 'operator', id: operatorId },
    action: 'account.plan_set',
    accountId,
    target: { type: 'account', id: accountId },
    reason: null,
    details: { plan: planName, previous_plan: before.planName, keys: keysMoved },
  });
  return { account: { ...before, planName }, keysMoved };
}
