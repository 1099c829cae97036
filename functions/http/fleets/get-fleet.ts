import { getFleetRoute } from '../../../shared/api/routes/fleets.ts';
import { fleetResource } from '../../../shared/api/serializers/fleets.ts';
import { actingPartnerId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { grantedFleet } from '../../../shared/usecases/fleets.ts';
import { fleetDeps } from '../../../shared/wiring/fleets.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(getFleetRoute, async ({ params }, context) =>
  ok(fleetResource(await grantedFleet(fleetDeps(), actingPartnerId(context), params.id))),
);
