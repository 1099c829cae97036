import { createRouteStore } from '../store/routes.ts';
import type { RouteDeps } from '../usecases/routes.ts';
import { perInfrastructure } from './infrastructure.ts';

/**
 * GET /v1/routes/{id}: the stored route alone. A module apart from truck-routes.ts, whose imports
 * (the planner, the station catalog and its highway graph) stay in a bundle even when unused
 * (docs/cold-starts.md).
 */
export const truckRouteReadDeps = /* @__PURE__ */ perInfrastructure(
  ({ client, config }): Pick<RouteDeps, 'routes'> => ({ routes: createRouteStore(client, config.tableName) }),
);
