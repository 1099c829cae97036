import { routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { createRouteBody, truckRouteIdParams, truckRouteSchema } from './schemas.ts';

/** Planning a route needs guidance:manage; replaying one, guidance:read. */
const truckRouteOperation = routeGroup({
  tags: ['Routes'],
  handlers: 'functions/http/truck-routes',
  access: 'fleet',
  family: 'routes',
  role: 'api',
});

export const createRouteOperation = /* @__PURE__ */ truckRouteOperation({
  operationId: 'createRoute',
  route: 'POST /v1/routes',
  summary: 'Plan a fuel-optimized route: where to buy diesel and how much',
  description:
    'Vehicle-shortcut form (`vehicle_id`: latest position, fuel level, tank and mpg) or manual form (`origin`, `tank_size_gallons`, `estimated_mpg`, `fuel_level_percent`). ' +
    'The plan is the least-cost set of stops that keeps 10% of the tank in reserve and arrives with at least `min_arrival_fuel_percent` (omitted: the fleet’s `default_min_arrival_fuel_percent`, 10 unless set; `fuel.min_arrival_fuel_percent` shows the value used). ' +
    'Cost is the effective price under the vehicle’s (else the fleet’s) `fuel_tax_treatment`: pump − discount − the state tax credited on the IFTA return under `ifta` (the default), pump − discount under `pump`. ' +
    'It is compared with its counterfactual: the same gallons bought at the mean price of the stations in reach for each purchase (`baseline`, `savings`). ' +
    'The fleet’s fuel card program is honoured: under `required` no stop is planned where the card is refused, and when only the program stands in the way the plan says so (`plan.status: no_accepted_station_in_range`, only the accepted stops up to the last fill within reach — none when no accepted stop is — and `plan.fuel_program_shortfall`: the next accepted stop and how far short the tank falls); under `preferred` an off-program stop costs the plan the fleet’s penalty per gallon, shown in its reason, never in its prices. Each stop has `in_fuel_program`. ' +
    'An infeasible trip is answered with `plan.status: infeasible` and the reason.',
  scope: 'guidance:manage',
  idempotent: true,
  request: { body: createRouteBody },
  responses: [{ status: 201, description: 'The computed route and fuel plan', schema: truckRouteSchema }],
  errors: [
    'insufficient_fuel_data',
    'vehicle_inactive',
    'routing_unreachable',
    'route_computation_timeout',
    'route_capacity',
  ],
});

export const getRouteOperation = /* @__PURE__ */ truckRouteOperation({
  operationId: 'getRoute',
  route: 'GET /v1/routes/{id}',
  summary: 'Replay a computed route, byte for byte',
  scope: 'guidance:read',
  idempotent: false,
  request: { params: truckRouteIdParams },
  responses: [{ status: 200, description: 'The route as first answered', schema: truckRouteSchema }],
});

export const truckRouteOperations = {
  createRoute: createRouteOperation,
  getRoute: getRouteOperation,
} satisfies Record<string, RouteDefinition>;
