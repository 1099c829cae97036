import { createFleetOperation } from '#shared/fleets/api/operations.ts';
import { fleetResource } from '#shared/fleets/api/serializers.ts';
import { provisionFleet } from '#shared/fleets/usecases/fleets.ts';
import { fleetProvisioningDeps } from '#shared/fleets/wiring/fleet-provisioning.ts';
import { actingPartnerId } from '#shared/platform/http/acting.ts';
import { created } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(createFleetOperation, async ({ body }, context) =>
  created(fleetResource(await provisionFleet(fleetProvisioningDeps(), actingPartnerId(context), body))),
);
