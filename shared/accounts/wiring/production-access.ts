import { newCompanyFleet } from '#shared/fleets/domain/fleet.ts';
import { newId } from '#shared/kernel/ids.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { tableStores } from '#shared/wiring/table-stores.ts';
import type { ProductionAccessDeps } from '../usecases/production-access.ts';
import { auditStore } from './audit.ts';

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
