import { routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import {
  cancelTripBody,
  createTripBody,
  listTripsQuery,
  tripPageSchema,
  tripParams,
  tripSchema,
  tripStopParams,
  updateTripBody,
} from './schemas.ts';

const tripOperation = routeGroup({
  tags: ['Trips'],
  handlers: 'functions/http/trips',
  access: 'fleet',
  scope: 'trips:manage',
  family: 'trips',
  role: 'api',
  idempotent: false,
});

const planningErrors = ['routing_unreachable', 'route_computation_timeout', 'route_capacity'] as const;

export const createTripOperation = /* @__PURE__ */ tripOperation({
  operationId: 'createTrip',
  route: 'POST /v1/trips',
  summary: 'Plan a dispatch trip; with auto_optimize its fuel stops are generated',
  description:
    'The vehicle is `vehicle_id` or `external_ref`. The trip is routed origin → destination; with `auto_optimize` the fuel stops are planned as POST /v1/routes plans them, from `start_fuel_percent` (omitted: the vehicle’s latest reported level) and `min_arrival_fuel_percent` (omitted: the fleet’s default), under the fleet’s fuel card program (`fuel_plan.status: no_accepted_station_in_range` with `fuel_plan.fuel_program_shortfall` when a `required` one leaves no plan). At most 25 dispatcher stops.',
  idempotent: true,
  request: { body: createTripBody },
  responses: [{ status: 201, description: 'The planned trip', schema: tripSchema }],
  errors: ['vehicle_inactive', 'insufficient_fuel_data', ...planningErrors],
});

export const listTripsOperation = /* @__PURE__ */ tripOperation({
  operationId: 'listTrips',
  route: 'GET /v1/trips',
  summary: "List the fleet's trips by planned start",
  description:
    'Oldest planned start first. No polyline unless `include=polyline`; any other include value is 422.',
  request: { query: listTripsQuery },
  responses: [{ status: 200, description: 'Trips', schema: tripPageSchema }],
});

export const getTripOperation = /* @__PURE__ */ tripOperation({
  operationId: 'getTrip',
  route: 'GET /v1/trips/{id}',
  summary: 'A trip, with its polyline',
  request: { params: tripParams },
  responses: [{ status: 200, description: 'The trip', schema: tripSchema }],
});

export const updateTripOperation = /* @__PURE__ */ tripOperation({
  operationId: 'updateTrip',
  route: 'PATCH /v1/trips/{id}',
  summary: 'Edit a planned trip',
  description:
    'Only while `planned` (else 409 trip_not_editable). `stops` is the full list of the dispatcher’s stops; a fuel stop sent back unchanged is ignored, a changed or new one is 422 fuel_stop_immutable. With auto_optimize, a new origin or destination regenerates the fuel stops.',
  request: { params: tripParams, body: updateTripBody },
  responses: [{ status: 200, description: 'The edited trip', schema: tripSchema }],
  errors: [
    'trip_not_editable',
    'fuel_stop_immutable',
    'vehicle_inactive',
    'insufficient_fuel_data',
    ...planningErrors,
  ],
});

export const deleteTripOperation = /* @__PURE__ */ tripOperation({
  operationId: 'deleteTrip',
  route: 'DELETE /v1/trips/{id}',
  summary: 'Delete a planned trip (an active one must be cancelled)',
  request: { params: tripParams },
  responses: [{ status: 204, description: 'Deleted' }],
  errors: ['invalid_trip_state'],
});

export const startTripOperation = /* @__PURE__ */ tripOperation({
  operationId: 'startTrip',
  route: 'POST /v1/trips/{id}/start',
  summary: 'planned → active: trip.started, and guidance toward the destination with the trip’s fuel stops',
  description: 'One active trip per vehicle: another one is 409 resource_conflict naming it.',
  request: { params: tripParams },
  responses: [{ status: 200, description: 'The active trip', schema: tripSchema }],
  errors: ['invalid_trip_state', 'resource_conflict', 'vehicle_inactive'],
});

export const completeTripOperation = /* @__PURE__ */ tripOperation({
  operationId: 'completeTrip',
  route: 'POST /v1/trips/{id}/complete',
  summary: 'active → completed: trip.completed; its guidance ends (trip_completed)',
  request: { params: tripParams },
  responses: [{ status: 200, description: 'The completed trip', schema: tripSchema }],
  errors: ['invalid_trip_state'],
});

export const cancelTripOperation = /* @__PURE__ */ tripOperation({
  operationId: 'cancelTrip',
  route: 'POST /v1/trips/{id}/cancel',
  summary: 'active → cancelled, with an optional reason: trip.cancelled; its guidance ends (trip_cancelled)',
  request: { params: tripParams, body: cancelTripBody, bodyRequired: false },
  responses: [{ status: 200, description: 'The cancelled trip', schema: tripSchema }],
  errors: ['invalid_trip_state'],
});

export const optimizeTripOperation = /* @__PURE__ */ tripOperation({
  operationId: 'optimizeTrip',
  route: 'POST /v1/trips/{id}/optimize',
  summary: '(Re)generate the fuel stops',
  description:
    'A planned trip from its origin; an active one from the vehicle’s latest position and level (its guidance reopens with the new stops). Ended trips: 409 invalid_trip_state.',
  request: { params: tripParams },
  responses: [{ status: 200, description: 'The trip with its new fuel stops', schema: tripSchema }],
  errors: ['invalid_trip_state', 'vehicle_inactive', 'insufficient_fuel_data', ...planningErrors],
});

export const arriveAtTripStopOperation = /* @__PURE__ */ tripOperation({
  operationId: 'arriveAtTripStop',
  route: 'POST /v1/trips/{id}/stops/{stopId}/arrive',
  summary: 'The dispatcher’s word: the truck arrived at the stop (sets arrived_at once)',
  request: { params: tripStopParams },
  responses: [{ status: 204, description: 'Recorded' }],
  errors: ['invalid_trip_state'],
});

export const departTripStopOperation = /* @__PURE__ */ tripOperation({
  operationId: 'departTripStop',
  route: 'POST /v1/trips/{id}/stops/{stopId}/depart',
  summary: 'The dispatcher’s word: the truck left the stop (sets departed_at once)',
  request: { params: tripStopParams },
  responses: [{ status: 204, description: 'Recorded' }],
  errors: ['invalid_trip_state'],
});

export const tripOperations = {
  createTrip: createTripOperation,
  listTrips: listTripsOperation,
  getTrip: getTripOperation,
  updateTrip: updateTripOperation,
  deleteTrip: deleteTripOperation,
  startTrip: startTripOperation,
  completeTrip: completeTripOperation,
  cancelTrip: cancelTripOperation,
  optimizeTrip: optimizeTripOperation,
  arriveAtTripStop: arriveAtTripStopOperation,
  departTripStop: departTripStopOperation,
} satisfies Record<string, RouteDefinition>;
