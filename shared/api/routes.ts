import type { RouteDefinition } from '../platform/http/route-definition.ts';
import { accountRoutes } from './routes/account.ts';
import { agentRoutes } from './routes/agents.ts';
import { discoveryRoutes } from './routes/discovery.ts';
import { eventRoutes } from './routes/events.ts';
import { fleetRoutes } from './routes/fleets.ts';
import { fuelingRoutes } from './routes/fuelings.ts';
import { guidanceRoutes } from './routes/guidance.ts';
import { integrationRoutes } from './routes/integration.ts';
import { keyRoutes } from './routes/keys.ts';
import { locationRoutes } from './routes/locations.ts';
import { reportRoutes } from './routes/reports.ts';
import { truckRouteRoutes } from './routes/routes.ts';
import { sandboxRoutes } from './routes/sandbox.ts';
import { sandboxPageRoutes } from './routes/sandbox-page.ts';
import { stationRoutes } from './routes/stations.ts';
import { tripRoutes } from './routes/trips.ts';
import { vehicleLocationRoutes, vehicleRoutes } from './routes/vehicles.ts';
import { webhookRoutes } from './routes/webhooks.ts';

/**
 * Every operation of the API, once. CDK builds a Lambda and an API Gateway route per entry, the
 * local stack routes requests by it and `npm run openapi` documents it. An entry goes into its
 * feature's file under routes/, together with its handler file; nothing else is written by hand.
 * openapi.json lists operations in this order, so a new feature is one more spread at the end.
 */
export const routes = {
  ...discoveryRoutes,
  ...accountRoutes,
  ...fleetRoutes,
  ...vehicleRoutes,
  ...stationRoutes,
  ...truckRouteRoutes,
  ...webhookRoutes,
  ...locationRoutes,
  ...guidanceRoutes,
  ...vehicleLocationRoutes,
  ...tripRoutes,
  ...fuelingRoutes,
  ...reportRoutes,
  ...keyRoutes,
  ...sandboxRoutes,
  ...integrationRoutes,
  ...eventRoutes,
  ...agentRoutes,
} satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof routes;
export const routeList: readonly RouteDefinition[] = Object.values(routes);

/**
 * Pages served beside the API (the sandbox page): routes like the others (a Lambda and an API
 * Gateway route each), but not API operations, so they stay out of `routes` and openapi.json.
 */
export const pageRoutes = {
  ...sandboxPageRoutes,
} satisfies Record<string, RouteDefinition>;

/** Everything a stage serves besides `$default`: what CDK, the local stack and the bundler build. */
export const servedRouteList: readonly RouteDefinition[] = [...routeList, ...Object.values(pageRoutes)];

/**
 * Everything no entry matches (API Gateway's `$default` route): 404 `resource_not_found` with a
 * hint naming the route that was asked for.
 */
export const fallbackRoute = {
  operationId: 'routeNotFound',
  handler: 'functions/http/discovery/route-not-found.ts',
  role: 'public',
} as const;
