import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { createTruckRouteStore } from '../store/truck-routes.ts';
import type { TruckRouteDeps } from '../usecases/truck-routes.ts';

/**
 * GET /v1/routes/{id}: the stored route alone. A module apart from truck-routes.ts, whose imports
 * (the planner, the station catalog and its highway graph) stay in a bundle even when unused
 * (docs/cold-starts.md).
 */
export const truckRouteReadDeps = /* @__PURE__ */ perInfrastructure(
  ({ client, config }): Pick<TruckRouteDeps, 'routes'> => ({
    routes: createTruckRouteStore(client, config.tableName),
  }),
);
