import { defineRoute, type RouteDefinition } from '../platform/http/route-definition.ts';
import { errorRegistrySchema } from './schemas/errors.ts';
import {
  createFleetBody,
  fleetIdParams,
  fleetPage,
  fleetSchema,
  listFleetsQuery,
  updateFleetBody,
} from './schemas/fleets.ts';
import {
  guidanceParams,
  guidanceSchema,
  guidanceStopParams,
  skipStopBody,
  startGuidanceBody,
} from './schemas/guidance.ts';
import {
  LOCATION_BATCH_LIMITS,
  latestLocationSchema,
  locationBatchBody,
  locationBatchResult,
} from './schemas/locations.ts';
import { meSchema } from './schemas/me.ts';
import { createRouteBody, routeIdParams, routeSchema } from './schemas/routes.ts';
import {
  alongRouteBody,
  alongRouteResponse,
  nearbyStationsQuery,
  nearbyStationsResponse,
} from './schemas/stations.ts';
import {
  createdVehicleSchema,
  createVehicleBody,
  listVehiclesQuery,
  updateVehicleBody,
  vehiclePage,
  vehicleRefParams,
  vehicleSchema,
} from './schemas/vehicles.ts';
import {
  createWebhookBody,
  deliveryPage,
  deliveryParams,
  deliverySchema,
  eventTypesSchema,
  listDeliveriesQuery,
  listWebhooksQuery,
  testWebhookBody,
  testWebhookResult,
  updateWebhookBody,
  webhookIdParams,
  webhookPage,
  webhookSchema,
  webhookWithSecretSchema,
} from './schemas/webhooks.ts';

type GroupDefaults = Pick<RouteDefinition, 'tags' | 'access' | 'scope' | 'family' | 'role' | 'idempotent'>;

/**
 * Routes of one resource share who may call them and how they are counted: the group states that
 * once, each entry only what is its own.
 */
function routeGroup<const D extends GroupDefaults>(defaults: D) {
  return <const R extends Omit<RouteDefinition, keyof GroupDefaults>>(route: R) =>
    defineRoute({ ...defaults, ...route } as const);
}

const webhookRoute = routeGroup({
  tags: ['Webhooks'],
  access: 'fleetOrPartner',
  scope: 'webhooks:manage',
  family: 'webhooks',
  role: 'api',
  idempotent: false,
});
const fleetRoute = routeGroup({
  tags: ['Fleets'],
  access: 'partner',
  scope: 'fleets:manage',
  family: 'fleets',
  role: 'api',
  idempotent: false,
});
const vehicleRoute = routeGroup({
  tags: ['Vehicles'],
  access: 'fleet',
  scope: 'vehicles:manage',
  family: 'vehicles',
  role: 'api',
  idempotent: false,
});

const guidanceDefaults = {
  tags: ['Guidance'],
  access: 'fleet',
  family: 'guidance',
  role: 'api',
  idempotent: false,
} as const;
/** Changing guidance needs guidance:manage; reading it, guidance:read (spec section 4). */
const guidanceRoute = routeGroup({ ...guidanceDefaults, scope: 'guidance:manage' });
const guidanceReadRoute = routeGroup({ ...guidanceDefaults, scope: 'guidance:read' });

/**
 * Every operation of the API, once. CDK builds a Lambda and an API Gateway route per entry, the
 * local stack routes requests by it, `npm run openapi` documents it and the MCP server picks tools
 * from it. Add an entry together with its handler file; nothing else is written by hand.
 */
export const routes = {
  getOpenApi: defineRoute({
    operationId: 'getOpenApi',
    method: 'GET',
    path: '/v1/openapi.json',
    summary: 'This OpenAPI 3.1 document',
    tags: ['Discovery'],
    access: 'anonymous',
    scope: null,
    family: null,
    role: 'public',
    idempotent: false,
    request: {},
    responses: [{ status: 200, description: 'OpenAPI 3.1 document; servers[0] is this stage.' }],
    handler: 'functions/http/discovery/get-openapi.ts',
  }),
  listErrors: defineRoute({
    operationId: 'listErrors',
    method: 'GET',
    path: '/v1/errors',
    summary: 'The error registry every problem `type` points into',
    tags: ['Discovery'],
    access: 'anonymous',
    scope: null,
    family: null,
    role: 'public',
    idempotent: false,
    request: {},
    responses: [
      {
        status: 200,
        description: 'Every error code with status, title and hint',
        schema: errorRegistrySchema,
      },
    ],
    handler: 'functions/http/discovery/list-errors.ts',
  }),
  getMe: defineRoute({
    operationId: 'getMe',
    method: 'GET',
    path: '/v1/me',
    summary: 'Introspect the calling key: owner, scopes, plan and usage',
    description: 'Works with any valid key and is exempt from monthly quotas.',
    tags: ['Account'],
    access: 'key',
    scope: null,
    family: null,
    role: 'api',
    idempotent: false,
    request: {},
    responses: [{ status: 200, description: 'The key, its scopes and its plan', schema: meSchema }],
    handler: 'functions/http/account/get-me.ts',
  }),
  createFleet: fleetRoute({
    operationId: 'createFleet',
    method: 'POST',
    path: '/v1/fleets',
    summary: 'Provision a fleet and grant it to the calling partner',
    description:
      'Creates the fleet and the partner grant in one transaction and records `fleet.provisioned`.',
    request: { body: createFleetBody },
    responses: [{ status: 201, description: 'The new fleet', schema: fleetSchema }],
    handler: 'functions/http/fleets/create-fleet.ts',
  }),
  listFleets: fleetRoute({
    operationId: 'listFleets',
    method: 'GET',
    path: '/v1/fleets',
    summary: "List the partner's granted fleets",
    request: { query: listFleetsQuery },
    responses: [{ status: 200, description: 'Granted fleets, oldest first', schema: fleetPage }],
    handler: 'functions/http/fleets/list-fleets.ts',
  }),
  getFleet: fleetRoute({
    operationId: 'getFleet',
    method: 'GET',
    path: '/v1/fleets/{id}',
    summary: 'Get a granted fleet',
    request: { params: fleetIdParams },
    responses: [{ status: 200, description: 'The fleet', schema: fleetSchema }],
    handler: 'functions/http/fleets/get-fleet.ts',
  }),
  updateFleet: fleetRoute({
    operationId: 'updateFleet',
    method: 'PATCH',
    path: '/v1/fleets/{id}',
    summary: 'Change a fleet’s name, contact_email or external_ref',
    request: { params: fleetIdParams, body: updateFleetBody },
    responses: [{ status: 200, description: 'The updated fleet', schema: fleetSchema }],
    handler: 'functions/http/fleets/update-fleet.ts',
  }),
  deleteFleet: fleetRoute({
    operationId: 'deleteFleet',
    method: 'DELETE',
    path: '/v1/fleets/{id}',
    summary: 'Deactivate a fleet (soft): the grant is revoked and the fleet marked inactive',
    request: { params: fleetIdParams },
    responses: [{ status: 204, description: 'Deactivated' }],
    handler: 'functions/http/fleets/delete-fleet.ts',
  }),
  createVehicle: vehicleRoute({
    operationId: 'createVehicle',
    method: 'POST',
    path: '/v1/vehicles',
    summary: 'Create a vehicle, or link a new external_ref to the vehicle with the same VIN',
    request: { body: createVehicleBody },
    responses: [
      { status: 201, description: 'Created', schema: createdVehicleSchema },
      {
        status: 200,
        description: 'Merged: the VIN matched an existing vehicle',
        schema: createdVehicleSchema,
      },
    ],
    errors: ['resource_conflict'],
    handler: 'functions/http/vehicles/create-vehicle.ts',
  }),
  listVehicles: vehicleRoute({
    operationId: 'listVehicles',
    method: 'GET',
    path: '/v1/vehicles',
    summary: "List the fleet's vehicles",
    request: { query: listVehiclesQuery },
    responses: [{ status: 200, description: 'Vehicles, oldest first', schema: vehiclePage }],
    handler: 'functions/http/vehicles/list-vehicles.ts',
  }),
  getVehicle: vehicleRoute({
    operationId: 'getVehicle',
    method: 'GET',
    path: '/v1/vehicles/{id}',
    summary: 'Get a vehicle by veh_ id or ext:<external_ref>',
    request: { params: vehicleRefParams },
    responses: [{ status: 200, description: 'The vehicle', schema: vehicleSchema }],
    handler: 'functions/http/vehicles/get-vehicle.ts',
  }),
  updateVehicle: vehicleRoute({
    operationId: 'updateVehicle',
    method: 'PATCH',
    path: '/v1/vehicles/{id}',
    summary: 'Change vehicle fields, including tank_size_gallons and estimated_mpg',
    request: { params: vehicleRefParams, body: updateVehicleBody },
    responses: [{ status: 200, description: 'The updated vehicle', schema: vehicleSchema }],
    errors: ['resource_conflict'],
    handler: 'functions/http/vehicles/update-vehicle.ts',
  }),
  deactivateVehicle: vehicleRoute({
    operationId: 'deactivateVehicle',
    method: 'POST',
    path: '/v1/vehicles/{id}/deactivate',
    summary: 'Deactivate a vehicle; affected operations then answer 409 vehicle_inactive',
    request: { params: vehicleRefParams },
    responses: [{ status: 200, description: 'The deactivated vehicle', schema: vehicleSchema }],
    errors: ['resource_conflict'],
    handler: 'functions/http/vehicles/deactivate-vehicle.ts',
  }),
  reactivateVehicle: vehicleRoute({
    operationId: 'reactivateVehicle',
    method: 'POST',
    path: '/v1/vehicles/{id}/reactivate',
    summary: 'Reactivate a deactivated vehicle',
    request: { params: vehicleRefParams },
    responses: [{ status: 200, description: 'The reactivated vehicle', schema: vehicleSchema }],
    errors: ['resource_conflict'],
    handler: 'functions/http/vehicles/reactivate-vehicle.ts',
  }),
  listNearbyStations: defineRoute({
    operationId: 'listNearbyStations',
    method: 'GET',
    path: '/v1/stations',
    summary: 'Truck stops near a point, nearest first, priced for the acting fleet',
    description:
      'Each station carries the posted diesel price, the fleet’s discount at that chain and the net price. Every station returned is charged to the station-query budget.',
    tags: ['Stations'],
    access: 'fleet',
    scope: 'guidance:read',
    family: 'stations',
    role: 'api',
    idempotent: false,
    request: { query: nearbyStationsQuery },
    responses: [{ status: 200, description: 'Stations within the radius', schema: nearbyStationsResponse }],
    handler: 'functions/http/stations/list-nearby-stations.ts',
  }),
  listStationsAlongRoute: defineRoute({
    operationId: 'listStationsAlongRoute',
    method: 'POST',
    path: '/v1/stations/along-route',
    summary: 'Truck stops along a route corridor, in route order, priced for the acting fleet',
    description:
      'Send an encoded `polyline`, or `origin` and `destination` (routed on the embedded interstate network). ' +
      'When more than `max_results` stations lie in the corridor, the cheapest of each stretch of the route is kept, so options cover the whole route. ' +
      'Every station returned is charged to the station-query budget.',
    tags: ['Stations'],
    access: 'fleet',
    scope: 'guidance:read',
    family: 'stations',
    role: 'api',
    idempotent: false,
    request: { body: alongRouteBody },
    responses: [{ status: 200, description: 'Stations in the corridor', schema: alongRouteResponse }],
    errors: ['routing_unreachable', 'route_computation_timeout'],
    handler: 'functions/http/stations/list-stations-along-route.ts',
  }),
  createRoute: defineRoute({
    operationId: 'createRoute',
    method: 'POST',
    path: '/v1/routes',
    summary: 'Plan a fuel-optimized route: where to buy diesel and how much',
    description:
      'Vehicle-shortcut form (`vehicle_id`: latest position, fuel level, tank and mpg) or manual form (`origin`, `tank_size_gallons`, `estimated_mpg`, `fuel_level_percent`). ' +
      'The plan is the least-cost set of stops that keeps 10% of the tank in reserve and arrives with at least `min_arrival_fuel_percent`; it is compared with filling to full whenever the tank falls below 25%. ' +
      'An infeasible trip is answered with `plan.status: infeasible` and the reason.',
    tags: ['Routes'],
    access: 'fleet',
    scope: 'guidance:manage',
    family: 'routes',
    role: 'api',
    idempotent: true,
    request: { body: createRouteBody },
    responses: [{ status: 201, description: 'The computed route and fuel plan', schema: routeSchema }],
    errors: [
      'insufficient_fuel_data',
      'vehicle_inactive',
      'routing_unreachable',
      'route_computation_timeout',
      'route_capacity',
    ],
    handler: 'functions/http/routes/create-route.ts',
  }),
  getRoute: defineRoute({
    operationId: 'getRoute',
    method: 'GET',
    path: '/v1/routes/{id}',
    summary: 'Replay a computed route, byte for byte',
    tags: ['Routes'],
    access: 'fleet',
    scope: 'guidance:read',
    family: 'routes',
    role: 'api',
    idempotent: false,
    request: { params: routeIdParams },
    responses: [{ status: 200, description: 'The route as first answered', schema: routeSchema }],
    handler: 'functions/http/routes/get-route.ts',
  }),
  listEventTypes: defineRoute({
    operationId: 'listEventTypes',
    method: 'GET',
    path: '/v1/webhooks/event-types',
    summary: 'The event catalog: the only event types endpoints may subscribe to',
    tags: ['Webhooks'],
    access: 'key',
    scope: null,
    family: null,
    role: 'public',
    idempotent: false,
    request: {},
    responses: [
      { status: 200, description: 'Every event type with a description', schema: eventTypesSchema },
    ],
    handler: 'functions/http/webhooks/list-event-types.ts',
  }),
  createWebhook: webhookRoute({
    operationId: 'createWebhook',
    method: 'POST',
    path: '/v1/webhooks',
    summary: 'Register a webhook endpoint; the signing secret is shown once',
    request: { body: createWebhookBody },
    responses: [
      { status: 201, description: 'The endpoint with its one-time secret', schema: webhookWithSecretSchema },
    ],
    handler: 'functions/http/webhooks/create-webhook.ts',
  }),
  listWebhooks: webhookRoute({
    operationId: 'listWebhooks',
    method: 'GET',
    path: '/v1/webhooks',
    summary: 'List webhook endpoints (never with secrets)',
    request: { query: listWebhooksQuery },
    responses: [{ status: 200, description: 'Endpoints, oldest first', schema: webhookPage }],
    handler: 'functions/http/webhooks/list-webhooks.ts',
  }),
  getWebhook: webhookRoute({
    operationId: 'getWebhook',
    method: 'GET',
    path: '/v1/webhooks/{id}',
    summary: 'Get a webhook endpoint (never with its secret)',
    request: { params: webhookIdParams },
    responses: [{ status: 200, description: 'The endpoint', schema: webhookSchema }],
    handler: 'functions/http/webhooks/get-webhook.ts',
  }),
  updateWebhook: webhookRoute({
    operationId: 'updateWebhook',
    method: 'PATCH',
    path: '/v1/webhooks/{id}',
    summary: 'Change url, event_types, description or status (active / disabled)',
    request: { params: webhookIdParams, body: updateWebhookBody },
    responses: [{ status: 200, description: 'The updated endpoint', schema: webhookSchema }],
    handler: 'functions/http/webhooks/update-webhook.ts',
  }),
  deleteWebhook: webhookRoute({
    operationId: 'deleteWebhook',
    method: 'DELETE',
    path: '/v1/webhooks/{id}',
    summary: 'Delete a webhook endpoint',
    request: { params: webhookIdParams },
    responses: [{ status: 204, description: 'Deleted' }],
    handler: 'functions/http/webhooks/delete-webhook.ts',
  }),
  rotateWebhookSecret: webhookRoute({
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/v1/webhooks/{id}/rotate-secret',
    summary: 'Issue a new signing secret, shown once; the previous one stays valid for 24 hours',
    description: 'While both are valid, every delivery carries one `v1=` signature per valid secret.',
    request: { params: webhookIdParams },
    responses: [
      {
        status: 200,
        description: 'The endpoint with its new one-time secret',
        schema: webhookWithSecretSchema,
      },
    ],
    handler: 'functions/http/webhooks/rotate-webhook-secret.ts',
  }),
  listWebhookDeliveries: webhookRoute({
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/v1/webhooks/{id}/deliveries',
    summary: 'The delivery log of an endpoint, newest first',
    request: { params: webhookIdParams, query: listDeliveriesQuery },
    responses: [{ status: 200, description: 'Deliveries', schema: deliveryPage }],
    handler: 'functions/http/webhooks/list-webhook-deliveries.ts',
  }),
  replayWebhookDelivery: webhookRoute({
    operationId: 'replayWebhookDelivery',
    method: 'POST',
    path: '/v1/webhooks/{id}/deliveries/{deliveryId}/replay',
    summary: 'Re-send the same event (same evt_ id and bytes) as a new delivery marked is_replay',
    request: { params: deliveryParams },
    responses: [{ status: 202, description: 'The new delivery, queued', schema: deliverySchema }],
    errors: ['event_expired'],
    handler: 'functions/http/webhooks/replay-webhook-delivery.ts',
  }),
  testWebhook: webhookRoute({
    operationId: 'testWebhook',
    method: 'POST',
    path: '/v1/webhooks/{id}/test',
    summary: 'Send a signed canned event now and report how the receiver answered',
    description:
      'Without a body, the endpoint’s first subscribed type is used (`guidance.updated` for `["*"]`). A test send never disables an endpoint and is not part of the event sequence (`sequence: 0`, `data.test: true`).',
    request: { params: webhookIdParams, body: testWebhookBody, bodyRequired: false },
    responses: [{ status: 200, description: 'The receiver’s answer', schema: testWebhookResult }],
    handler: 'functions/http/webhooks/test-webhook.ts',
  }),
  ingestLocations: defineRoute({
    operationId: 'ingestLocations',
    method: 'POST',
    path: '/v1/locations',
    summary: 'Push vehicle breadcrumbs (at most 500 items and 1 MB per batch)',
    description:
      'Each item names its vehicle by `vehicle_id` or `external_ref` and is judged on its own: a bad item is rejected with a `code` and a `hint`, the rest are accepted (always 200 for a processed batch). ' +
      '`speed_mph` is stored in km/h. The latest position only moves forward in time.',
    tags: ['Locations'],
    access: 'fleet',
    scope: 'locations:write',
    family: 'locations',
    role: 'api',
    idempotent: false,
    request: { body: locationBatchBody, maxBodyBytes: LOCATION_BATCH_LIMITS.maxBytes },
    responses: [{ status: 200, description: 'Per-item results', schema: locationBatchResult }],
    errors: ['batch_too_large'],
    handler: 'functions/http/locations/ingest-locations.ts',
  }),
  startGuidance: guidanceRoute({
    operationId: 'startGuidance',
    method: 'POST',
    path: '/v1/vehicles/{id}/guidance',
    summary: 'Start continuous fuel-stop guidance toward a destination',
    description:
      'A new session supersedes an active one. The first plan comes from the latest breadcrumb; every later breadcrumb recomputes it (guidance.updated fires only when the stop set changes materially). ' +
      'Needs tank_size_gallons and estimated_mpg on the vehicle.',
    request: { params: guidanceParams, body: startGuidanceBody },
    responses: [{ status: 201, description: 'The new guidance session', schema: guidanceSchema }],
    errors: [
      'insufficient_fuel_data',
      'vehicle_inactive',
      'resource_conflict',
      'routing_unreachable',
      'route_computation_timeout',
      'route_capacity',
    ],
    handler: 'functions/http/guidance/start-guidance.ts',
  }),
  getGuidance: guidanceReadRoute({
    operationId: 'getGuidance',
    method: 'GET',
    path: '/v1/vehicles/{id}/guidance',
    summary: "The vehicle's active guidance session",
    description:
      'Freshness grades and the data_stale phase are judged when read. Each returned stop counts as a station result.',
    request: { params: guidanceParams },
    responses: [{ status: 200, description: 'The active session', schema: guidanceSchema }],
    errors: ['no_active_guidance'],
    handler: 'functions/http/guidance/get-guidance.ts',
  }),
  cancelGuidance: guidanceRoute({
    operationId: 'cancelGuidance',
    method: 'DELETE',
    path: '/v1/vehicles/{id}/guidance',
    summary: 'Cancel the active session (reason caller_cancelled)',
    request: { params: guidanceParams },
    responses: [{ status: 204, description: 'Cancelled' }],
    errors: ['no_active_guidance', 'resource_conflict'],
    handler: 'functions/http/guidance/cancel-guidance.ts',
  }),
  acknowledgeGuidanceStop: guidanceRoute({
    operationId: 'acknowledgeGuidanceStop',
    method: 'POST',
    path: '/v1/vehicles/{id}/guidance/stops/{stopId}/acknowledge',
    summary: 'The driver or agent accepted the stop',
    description: 'Acknowledging twice is one acknowledgement; a skipped stop cannot be acknowledged (409).',
    request: { params: guidanceStopParams },
    responses: [{ status: 204, description: 'Acknowledged' }],
    errors: ['no_active_guidance', 'resource_conflict', 'vehicle_inactive'],
    handler: 'functions/http/guidance/acknowledge-guidance-stop.ts',
  }),
  skipGuidanceStop: guidanceRoute({
    operationId: 'skipGuidanceStop',
    method: 'POST',
    path: '/v1/vehicles/{id}/guidance/stops/{stopId}/skip',
    summary: 'Skip a stop: its station is excluded from this session and a new plan follows',
    description:
      'The stop leaves the list and the plan is made again at once without its station (for the rest of the session); guidance.updated announces the new set. Skipping a skipped stop again changes nothing.',
    request: { params: guidanceStopParams, body: skipStopBody, bodyRequired: false },
    responses: [{ status: 204, description: 'Skipped' }],
    errors: ['no_active_guidance', 'resource_conflict', 'vehicle_inactive'],
    handler: 'functions/http/guidance/skip-guidance-stop.ts',
  }),
  getVehicleLocation: vehicleRoute({
    operationId: 'getVehicleLocation',
    method: 'GET',
    path: '/v1/vehicles/{id}/location',
    summary: "A vehicle's latest known position, with a freshness grade",
    description: '404 until the first breadcrumb lands.',
    request: { params: vehicleRefParams },
    responses: [{ status: 200, description: 'The latest position', schema: latestLocationSchema }],
    handler: 'functions/http/vehicles/get-vehicle-location.ts',
  }),
} satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof routes;
export const routeList: readonly RouteDefinition[] = Object.values(routes);

/**
 * Everything no entry matches (API Gateway's `$default` route): 404 `resource_not_found` with a
 * hint naming the route that was asked for.
 */
export const fallbackRoute = {
  operationId: 'routeNotFound',
  handler: 'functions/http/discovery/route-not-found.ts',
  role: 'public',
} as const;
