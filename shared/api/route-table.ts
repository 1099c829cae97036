import { accountOperations } from '#shared/accounts/api/operations.ts';
import { agentOperations } from '#shared/agents/api/operations.ts';
import { discoveryOperations } from '#shared/discovery/api/operations.ts';
import { eventOperations } from '#shared/events/api/operations.ts';
import { fleetOperations } from '#shared/fleets/api/operations.ts';
import { fuelingOperations } from '#shared/fuelings/api/operations.ts';
import { guidanceOperations } from '#shared/guidance/api/operations.ts';
import { integrationOperations } from '#shared/integration-health/api/operations.ts';
import { keyOperations } from '#shared/keys/api/operations.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { reportOperations } from '#shared/reports/api/operations.ts';
import { sandboxOperations } from '#shared/sandbox/api/operations.ts';
import { sandboxPageOperations } from '#shared/sandbox/api/page-operations.ts';
import { stationOperations } from '#shared/stations/api/operations.ts';
import { locationOperations } from '#shared/tracking/api/operations.ts';
import { tripOperations } from '#shared/trips/api/operations.ts';
import { truckRouteOperations } from '#shared/truck-routes/api/operations.ts';
import { vehicleLocationOperations, vehicleOperations } from '#shared/vehicles/api/operations.ts';
import { webhookOperations } from '#shared/webhooks/api/operations.ts';

/**
 * Every operation of the API, once. CDK builds a Lambda and an API Gateway route per entry, the
 * local stack routes requests by it and `npm run openapi` documents it. An entry goes into its
 * feature's `api/operations.ts`, its handler into the feature's handler folder under functions/
 * (named after the operationId); nothing else is written by hand.
 * openapi.json lists operations in this order, so a new feature is one more spread at the end.
 */
export const routes = {
  ...discoveryOperations,
  ...accountOperations,
  ...fleetOperations,
  ...vehicleOperations,
  ...stationOperations,
  ...truckRouteOperations,
  ...webhookOperations,
  ...locationOperations,
  ...guidanceOperations,
  ...vehicleLocationOperations,
  ...tripOperations,
  ...fuelingOperations,
  ...reportOperations,
  ...keyOperations,
  ...sandboxOperations,
  ...integrationOperations,
  ...eventOperations,
  ...agentOperations,
} satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof routes;
export const routeList: readonly RouteDefinition[] = Object.values(routes);

/**
 * Pages served beside the API (the sandbox page): routes like the others (a Lambda and an API
 * Gateway route each), but not API operations, so they stay out of `routes` and openapi.json.
 */
export const pageOperations = {
  ...sandboxPageOperations,
} satisfies Record<string, RouteDefinition>;

/** Everything a stage serves besides `$default`: what CDK, the local stack and the bundler build. */
export const servedRouteList: readonly RouteDefinition[] = [...routeList, ...Object.values(pageOperations)];

/**
 * Everything no entry matches (API Gateway's `$default` route): 404 `resource_not_found` with a
 * hint naming the route that was asked for.
 */
export const fallbackOperation = {
  operationId: 'routeNotFound',
  handler: 'functions/http/discovery/route-not-found.ts',
  role: 'public',
} as const;
