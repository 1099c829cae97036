import { routes } from '../../../shared/api/routes.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { created } from '../../../shared/platform/http/types.ts';
import { routeRepositories } from '../../../shared/store/station-repositories.ts';
import { createRoute } from '../../../shared/usecases/routes.ts';

export const handler = createHttpHandler(routes.createRoute, async ({ body }, context) => {
  const principal = context.principal;
  if (!principal) throw new Error('Route planning reached without a key');
  const deps = { ...routeRepositories(), now: context.clock.now };
  const fleetId = actingFleetId(context);
  const route = await createRoute(deps, principal, fleetId, body);
  await deps.routes.put(fleetId, route.id, JSON.stringify(route), context.clock.now());
  return created(route);
});
