import { updateActingFleetOperation } from '#shared/fleets/api/operations.ts';
import { fleetResource } from '#shared/fleets/api/serializers.ts';
import { updateActingFleetSettings } from '#shared/fleets/usecases/fleets.ts';
import { fleetDeps } from '#shared/fleets/wiring/fleets.ts';
import { actingFleetId, actingPrincipal } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(updateActingFleetOperation, async ({ body }, context) =>
  ok(
    fleetResource(
      await updateActingFleetSettings(fleetDeps(), actingPrincipal(context), actingFleetId(context), body),
    ),
  ),
);
