import type { Principal } from '#shared/keys/domain/api-key.ts';
import { type Plan, usagePeriod } from '#shared/plans/domain/plans.ts';
import type { Counters } from '#shared/plans/store/counters.ts';
import { authUnavailable, isTransientAwsError } from '#shared/platform/domain-errors.ts';
import type { MeInputs } from '../api/serializers.ts';
import type { AccountStore } from '../store/accounts.ts';

export interface AccountDeps {
  plans: { get(name: string): Promise<Plan | null> };
  counters: Pick<Counters, 'readUsage'>;
  accounts: Pick<AccountStore, 'get'>;
}

/** GET /v1/me: the key's plan, its account and what the account used this month. */
export async function describeAccount(
  deps: AccountDeps,
  principal: Principal,
  nowMs: number,
): Promise<MeInputs> {
  const period = usagePeriod(nowMs);
  // GET /v1/me is how a client checks its key: when the key's plan, usage or account cannot be
  // read, it is the auth backend that is unavailable, not the caller's data.
  const [plan, used, account] = await Promise.all([
    deps.plans.get(principal.planName),
    deps.counters.readUsage(principal.accountId, period.id),
    deps.accounts.get(principal.accountId),
  ]).catch((error: unknown) => {
    if (isTransientAwsError(error)) throw authUnavailable('The key’s account could not be read right now.');
    throw error;
  });
  if (!plan) throw authUnavailable('The key’s plan could not be loaded.');
  return { principal, plan, used, account, period };
}
