import { getFleetOperation } from '#shared/fleets/api/operations.ts';
import { fleetResource } from '#shared/fleets/api/serializers.ts';
import { grantedFleet } from '#shared/fleets/usecases/fleets.ts';
import { fleetDeps } from '#shared/fleets/wiring/fleets.ts';
import { actingPartnerId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(getFleetOperation, async ({ params }, context) =>
  ok(fleetResource(await grantedFleet(fleetDeps(), actingPartnerId(context), params.id))),
);
