import { getRouteRoute } from '../../../shared/api/routes/routes.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { getRoute } from '../../../shared/usecases/routes.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { truckRouteReadDeps } from '../../../shared/wiring/truck-route-reads.ts';

export const handler = httpHandler(getRouteRoute, async ({ params }, context) =>
  ok(await getRoute(truckRouteReadDeps(), actingFleetId(context), params.id)),
);
