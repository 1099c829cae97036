import { getActingFleetRoute } from '../../../shared/api/routes/fleets.ts';
import { fleetResource } from '../../../shared/api/serializers/fleets.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { actingFleet } from '../../../shared/usecases/fleets.ts';
import { fleetDeps } from '../../../shared/wiring/fleets.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(getActingFleetRoute, async (_request, context) =>
  ok(fleetResource(await actingFleet(fleetDeps(), actingFleetId(context)))),
);
