import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { tableStores } from '#shared/wiring/table-stores.ts';
import type { AccountDeps } from '../usecases/account.ts';

/** GET /v1/me. */
export const accountDeps = /* @__PURE__ */ perInfrastructure((infra): AccountDeps => {
  const { plans, counters, accounts } = tableStores(infra);
  return { plans, counters, accounts };
});
