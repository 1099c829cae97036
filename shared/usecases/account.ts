import type { MeInputs } from '../api/serializers/me.ts';
import { accountIdOf, type Principal } from '../domain/api-keys.ts';
import { type Plan, usagePeriod } from '../domain/plans.ts';
import { ApiError } from '../platform/errors.ts';
import type { Counters } from '../store/counters.ts';
import type { FleetStore } from '../store/fleets.ts';

export interface AccountDeps {
  plans: { get(name: string): Promise<Plan | null> };
  counters: Pick<Counters, 'readUsage'>;
  fleets: Pick<FleetStore, 'getPartner'>;
}

/** GET /v1/me: the key's plan, its partner and what its account used this month. */
export async function describeAccount(
  deps: AccountDeps,
  principal: Principal,
  nowMs: number,
): Promise<MeInputs> {
  const period = usagePeriod(nowMs);
  const [plan, used, partner] = await Promise.all([
    deps.plans.get(principal.planName),
    deps.counters.readUsage(accountIdOf(principal), period.id),
    principal.partnerId ? deps.fleets.getPartner(principal.partnerId) : null,
  ]);
  if (!plan) throw new ApiError('auth_unavailable', 'The key’s plan could not be loaded.');
  return { principal, plan, used, partner, period };
}
