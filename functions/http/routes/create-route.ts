import { createRouteRoute } from '../../../shared/api/routes/routes.ts';
import { actingFleetId, actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { created } from '../../../shared/platform/http/types.ts';
import { createRoute } from '../../../shared/usecases/routes.ts';
import { idempotentHttpHandler } from '../../../shared/wiring/idempotent-http.ts';
import { truckRouteDeps } from '../../../shared/wiring/truck-routes.ts';

export const handler = idempotentHttpHandler(createRouteRoute, async ({ body }, context) =>
  created(await createRoute(truckRouteDeps(), actingPrincipal(context), actingFleetId(context), body)),
);
