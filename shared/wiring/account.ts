import type { AccountDeps } from '../usecases/account.ts';
import { perInfrastructure } from './infrastructure.ts';
import { tableStores } from './table-stores.ts';

/** GET /v1/me. */
export const accountDeps = /* @__PURE__ */ perInfrastructure((infra): AccountDeps => {
  const { plans, counters, accounts } = tableStores(infra);
  return { plans, counters, accounts };
});
