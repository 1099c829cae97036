import { auditStore } from '#shared/accounts/wiring/audit.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { tableStores } from '#shared/wiring/table-stores.ts';
import type { KeyDeps } from '../usecases/api-keys.ts';

/** Keys: owner calls (/v1/keys) and operator calls (/admin/v1/keys). */
export const keyDeps = /* @__PURE__ */ perInfrastructure((infra): KeyDeps => {
  const { apiKeys, accounts } = tableStores(infra);
  return { apiKeys, accounts, audit: auditStore(infra), now: infra.clock.now };
});
