import type { FleetDeps } from '../usecases/fleets.ts';
import { fanOut } from '../usecases/webhook-delivery.ts';
import { fleetDeps } from './fleets.ts';
import { perInfrastructure } from './infrastructure.ts';
import { fanOutDeps } from './webhooks.ts';

/**
 * POST /v1/fleets: `fleet.provisioned` fans out to the partner's endpoints; apart from fleets.ts so
 * the other fleet functions bundle no webhook delivery.
 */
export const fleetProvisioningDeps = /* @__PURE__ */ perInfrastructure(
  (infra): FleetDeps => ({
    ...fleetDeps(infra),
    announce: (event, partnerId) => fanOut(fanOutDeps(infra), event, partnerId),
  }),
);
