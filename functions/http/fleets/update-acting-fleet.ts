import { updateActingFleetRoute } from '../../../shared/api/routes/fleets.ts';
import { fleetResource } from '../../../shared/api/serializers/fleets.ts';
import { actingFleetId, actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { updateActingFleetSettings } from '../../../shared/usecases/fleets.ts';
import { fleetDeps } from '../../../shared/wiring/fleets.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(updateActingFleetRoute, async ({ body }, context) =>
  ok(
    fleetResource(
      await updateActingFleetSettings(fleetDeps(), actingPrincipal(context), actingFleetId(context), body),
    ),
  ),
);
