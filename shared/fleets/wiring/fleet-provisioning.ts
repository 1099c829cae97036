import { fanOut } from '#shared/webhooks/usecases/webhook-delivery.ts';
import { fanOutDeps } from '#shared/webhooks/wiring/webhooks.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import type { FleetDeps } from '../usecases/fleets.ts';
import { fleetDeps } from './fleets.ts';

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
