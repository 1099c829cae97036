import { createFleetRoute } from '../../../shared/api/routes/fleets.ts';
import { fleetResource } from '../../../shared/api/serializers/fleets.ts';
import { actingPartnerId } from '../../../shared/platform/http/acting.ts';
import { created } from '../../../shared/platform/http/types.ts';
import { provisionFleet } from '../../../shared/usecases/fleets.ts';
import { fleetProvisioningDeps } from '../../../shared/wiring/fleet-provisioning.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(createFleetRoute, async ({ body }, context) =>
  created(fleetResource(await provisionFleet(fleetProvisioningDeps(), actingPartnerId(context), body))),
);
