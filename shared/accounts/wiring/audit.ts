import { newCompanyFleet } from '#shared/fleets/domain/fleet.ts';
import { newId } from '#shared/kernel/ids.ts';
import type { KeyDeps } from '#shared/keys/usecases/api-keys.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { tableStores } from '#shared/wiring/table-stores.ts';
import { createAuditStore } from '../store/audit-log.ts';
import type { ProductionAccessDeps } from '../usecases/production-access.ts';

/** The control plane's audit trail (accounts, keys and production access write to it). */
export const auditStore = /* @__PURE__ */ perInfrastructure(({ client, config, cursors }) =>
  createAuditStore(client, config.controlTableName, cursors),
);

/** Keys: owner calls (/v1/keys) and operator calls (/admin/v1/keys). */
export const keyDeps = /* @__PURE__ */ perInfrastructure((infra): KeyDeps => {
  const { apiKeys, accounts } = tableStores(infra);
  return { apiKeys, accounts, audit: auditStore(infra), now: infra.clock.now };
});

/**
 * Production access: the owner's request and the operator's decisions. Approval creates the
 * company's live fleet in this stage's table, which is production's wherever approval runs.
 */
export const productionAccessDeps = /* @__PURE__ */ perInfrastructure((infra): ProductionAccessDeps => {
  const { apiKeys, accounts, plans, fleets } = tableStores(infra);
  return {
    apiKeys,
    accounts,
    plans,
    audit: auditStore(infra),
    now: infra.clock.now,
    async createLiveFleet(account, at) {
      const id = newId('fleet', Date.parse(at));
      await fleets.putCompanyFleet(
        newCompanyFleet(
          {
            id,
            name: account.name,
            externalRef: null,
            contactEmail: account.contactEmail,
            timezone: account.timezone ?? 'UTC',
          },
          at,
        ),
      );
      return id;
    },
  };
});
