import type { FleetDeps } from '../usecases/fleets.ts';
import { fanOut } from '../usecases/webhook-delivery.ts';
import { perInfrastructure } from './infrastructure.ts';
import { tableStores } from './table-stores.ts';
import { deliveryDeps } from './webhooks.ts';

/** Partner fleet provisioning; `fleet.provisioned` fans out to the partner's endpoints. */
export const fleetDeps = perInfrastructure(
  (infra): FleetDeps => ({
    fleets: tableStores(infra).fleets,
    stage: infra.config.stage,
    clock: infra.clock,
    announce: (event, partnerId) => fanOut(deliveryDeps(infra), event, partnerId),
  }),
);
