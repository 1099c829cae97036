import { routes } from '../../../shared/api/routes.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { routeRepositories } from '../../../shared/store/station-repositories.ts';
import { getRoute } from '../../../shared/usecases/routes.ts';

export const handler = createHttpHandler(routes.getRoute, async ({ params }, context) =>
  ok(await getRoute(routeRepositories(), actingFleetId(context), params.id)),
);
