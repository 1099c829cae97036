import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { getRouteOperation } from '#shared/truck-routes/api/operations.ts';
import { getRoute } from '#shared/truck-routes/usecases/truck-routes.ts';
import { truckRouteReadDeps } from '#shared/truck-routes/wiring/truck-route-reads.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(getRouteOperation, async ({ params }, context) =>
  ok(await getRoute(truckRouteReadDeps(), actingFleetId(context), params.id)),
);
