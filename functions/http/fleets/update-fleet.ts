import { updateFleetOperation } from '#shared/fleets/api/operations.ts';
import { fleetResource } from '#shared/fleets/api/serializers.ts';
import { updateFleet } from '#shared/fleets/usecases/fleets.ts';
import { fleetDeps } from '#shared/fleets/wiring/fleets.ts';
import { actingPartnerId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(updateFleetOperation, async ({ params, body }, context) =>
  ok(fleetResource(await updateFleet(fleetDeps(), actingPartnerId(context), params.id, body))),
);
