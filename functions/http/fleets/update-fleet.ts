import { updateFleetRoute } from '../../../shared/api/routes/fleets.ts';
import { fleetResource } from '../../../shared/api/serializers/fleets.ts';
import { actingPartnerId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { updateFleet } from '../../../shared/usecases/fleets.ts';
import { fleetDeps } from '../../../shared/wiring/fleets.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(updateFleetRoute, async ({ params, body }, context) =>
  ok(fleetResource(await updateFleet(fleetDeps(), actingPartnerId(context), params.id, body))),
);
