import type { MeInputs } from '../api/serializers/me.ts';
import type { Principal } from '../domain/api-keys.ts';
import { type Plan, usagePeriod } from '../domain/plans.ts';
import { authUnavailable, isTransientAwsError } from '../platform/domain-errors.ts';
import type { AccountStore } from '../store/accounts.ts';
import type { Counters } from '../store/counters.ts';

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
