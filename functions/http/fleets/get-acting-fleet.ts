import { getActingFleetOperation } from '#shared/fleets/api/operations.ts';
import { fleetResource } from '#shared/fleets/api/serializers.ts';
import { actingFleet } from '#shared/fleets/usecases/fleets.ts';
import { fleetDeps } from '#shared/fleets/wiring/fleets.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(getActingFleetOperation, async (_request, context) =>
  ok(fleetResource(await actingFleet(fleetDeps(), actingFleetId(context)))),
);
