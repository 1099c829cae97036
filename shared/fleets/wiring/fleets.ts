import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { tableStores } from '#shared/wiring/table-stores.ts';
import type { FleetDeps } from '../usecases/fleets.ts';

/** Partner fleets (provisioning, which also announces, is wired in fleet-provisioning.ts). */
export const fleetDeps = /* @__PURE__ */ perInfrastructure(
  (infra): FleetDeps => ({
    fleets: tableStores(infra).fleets,
    stage: infra.config.stage,
    clock: infra.clock,
  }),
);
