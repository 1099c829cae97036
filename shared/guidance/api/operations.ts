import { routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import {
  guidanceParams,
  guidanceSchema,
  guidanceStopParams,
  skipStopBody,
  startGuidanceBody,
} from './schemas.ts';

const guidanceDefaults = {
  tags: ['Guidance'],
  handlers: 'functions/http/guidance',
  access: 'fleet',
  family: 'guidance',
  role: 'api',
  idempotent: false,
} as const;
/** Changing guidance needs guidance:manage; reading it, guidance:read (docs/api-guide.md#scopes-and-access-every-route). */
const guidanceOperation = routeGroup({ ...guidanceDefaults, scope: 'guidance:manage' });
const guidanceReadOperation = routeGroup({ ...guidanceDefaults, scope: 'guidance:read' });

export const startGuidanceOperation = /* @__PURE__ */ guidanceOperation({
  operationId: 'startGuidance',
  route: 'POST /v1/vehicles/{id}/guidance',
  summary: 'Start continuous fuel-stop guidance toward a destination',
  description:
    'A new session supersedes an active one. The first plan comes from the latest breadcrumb; every later breadcrumb recomputes it (guidance.updated fires only when the stop set changes materially). ' +
    'Plans keep to the fleet’s fuel card program as POST /v1/routes does: `plan_status: no_accepted_station_in_range` with `fuel_program_shortfall` when only a `required` program stands in the way (the accepted stops within reach before the uncovered stretch, or phase cannot_reach and no stops when none is); each plan reads the program as it is then. ' +
    'Needs tank_size_gallons and estimated_mpg on the vehicle. Without `min_arrival_fuel_percent` the fleet’s `default_min_arrival_fuel_percent` applies (10 unless set); the session’s `min_arrival_fuel_percent` is the value in force.',
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
});

export const getGuidanceOperation = /* @__PURE__ */ guidanceReadOperation({
  operationId: 'getGuidance',
  route: 'GET /v1/vehicles/{id}/guidance',
  summary: "The vehicle's active guidance session",
  description:
    'Freshness grades and the data_stale phase are judged when read. Each returned stop counts as a station result.',
  request: { params: guidanceParams },
  responses: [{ status: 200, description: 'The active session', schema: guidanceSchema }],
  errors: ['no_active_guidance'],
});

export const cancelGuidanceOperation = /* @__PURE__ */ guidanceOperation({
  operationId: 'cancelGuidance',
  route: 'DELETE /v1/vehicles/{id}/guidance',
  summary: 'Cancel the active session (reason caller_cancelled)',
  request: { params: guidanceParams },
  responses: [{ status: 204, description: 'Cancelled' }],
  errors: ['no_active_guidance', 'resource_conflict'],
});

export const acknowledgeGuidanceStopOperation = /* @__PURE__ */ guidanceOperation({
  operationId: 'acknowledgeGuidanceStop',
  route: 'POST /v1/vehicles/{id}/guidance/stops/{stopId}/acknowledge',
  summary: 'The driver or agent accepted the stop',
  description: 'Acknowledging twice is one acknowledgement; a skipped stop cannot be acknowledged (409).',
  request: { params: guidanceStopParams },
  responses: [{ status: 204, description: 'Acknowledged' }],
  errors: ['no_active_guidance', 'resource_conflict', 'vehicle_inactive'],
});

export const skipGuidanceStopOperation = /* @__PURE__ */ guidanceOperation({
  operationId: 'skipGuidanceStop',
  route: 'POST /v1/vehicles/{id}/guidance/stops/{stopId}/skip',
  summary: 'Skip a stop: its station is excluded from this session and a new plan follows',
  description:
    'The stop leaves the list and the plan is made again at once without its station (for the rest of the session); guidance.updated announces the new set. Skipping a skipped stop again changes nothing.',
  request: { params: guidanceStopParams, body: skipStopBody, bodyRequired: false },
  responses: [{ status: 204, description: 'Skipped' }],
  errors: ['no_active_guidance', 'resource_conflict', 'vehicle_inactive'],
});

export const guidanceOperations = {
  startGuidance: startGuidanceOperation,
  getGuidance: getGuidanceOperation,
  cancelGuidance: cancelGuidanceOperation,
  acknowledgeGuidanceStop: acknowledgeGuidanceStopOperation,
  skipGuidanceStop: skipGuidanceStopOperation,
} satisfies Record<string, RouteDefinition>;
