import { actingFleetId, actingPrincipal } from '#shared/platform/http/acting.ts';
import { created } from '#shared/platform/http/types.ts';
import { createRouteOperation } from '#shared/truck-routes/api/operations.ts';
import { createRoute } from '#shared/truck-routes/usecases/truck-routes.ts';
import { truckRouteDeps } from '#shared/truck-routes/wiring/truck-routes.ts';
import { idempotentHttpHandler } from '#shared/wiring/idempotent-http.ts';

export const handler = idempotentHttpHandler(createRouteOperation, async ({ body }, context) =>
  created(await createRoute(truckRouteDeps(), actingPrincipal(context), actingFleetId(context), body)),
);
