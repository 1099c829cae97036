import type { FleetDeps } from '../usecases/fleets.ts';
import { perInfrastructure } from './infrastructure.ts';
import { tableStores } from './table-stores.ts';

/** Partner fleets (provisioning, which also announces, is wired in fleet-provisioning.ts). */
export const fleetDeps = /* @__PURE__ */ perInfrastructure(
  (infra): FleetDeps => ({
    fleets: tableStores(infra).fleets,
    stage: infra.config.stage,
    clock: infra.clock,
  }),
);
