import { routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import {
  alongRouteBody,
  alongRouteResponse,
  nearbyStationsQuery,
  nearbyStationsResponse,
} from './schemas.ts';

/** Station queries read fuel prices: guidance:read, counted as stations. */
const stationOperation = routeGroup({
  tags: ['Stations'],
  handlers: 'functions/http/stations',
  access: 'fleet',
  scope: 'guidance:read',
  family: 'stations',
  role: 'api',
  idempotent: false,
});

export const listNearbyStationsOperation = /* @__PURE__ */ stationOperation({
  operationId: 'listNearbyStations',
  route: 'GET /v1/stations',
  summary: 'Truck stops near a point, nearest first, priced for the acting fleet',
  description:
    'Each station carries the posted diesel price, the fleet’s discount at that chain and the net price. Every station returned is charged to the station-query budget.',
  request: { query: nearbyStationsQuery },
  responses: [{ status: 200, description: 'Stations within the radius', schema: nearbyStationsResponse }],
});

export const listStationsAlongRouteOperation = /* @__PURE__ */ stationOperation({
  operationId: 'listStationsAlongRoute',
  route: 'POST /v1/stations/along-route',
  readOnly: true,
  summary: 'Truck stops along a route corridor, in route order, priced for the acting fleet',
  description:
    'Send an encoded `polyline`, or `origin` and `destination` (routed on the embedded interstate network). ' +
    'When more than `max_results` stations lie in the corridor, the cheapest of each stretch of the route is kept, so options cover the whole route. ' +
    'Every station returned is charged to the station-query budget.',
  request: { body: alongRouteBody },
  responses: [{ status: 200, description: 'Stations in the corridor', schema: alongRouteResponse }],
  errors: ['routing_unreachable', 'route_computation_timeout'],
});

export const stationOperations = {
  listNearbyStations: listNearbyStationsOperation,
  listStationsAlongRoute: listStationsAlongRouteOperation,
} satisfies Record<string, RouteDefinition>;
