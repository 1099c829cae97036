import { routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import {
  createFleetBody,
  fleetIdParams,
  fleetPage,
  fleetSchema,
  listFleetsQuery,
  updateFleetBody,
  updateFleetSettingsBody,
} from './schemas.ts';

const fleetOperation = routeGroup({
  tags: ['Fleets'],
  handlers: 'functions/http/fleets',
  access: 'partner',
  scope: 'fleets:manage',
  family: 'fleets',
  role: 'api',
  idempotent: false,
});

/**
 * The fleet a call acts on, for keys that cannot call /v1/fleets (company keys; a partner key with
 * SVC-Fleet may use it too). It reads the fleet and changes its settings, nothing else: vehicles:manage,
 * like the other fleet-administration calls a company key makes.
 */
const actingFleetOperation = routeGroup({
  tags: ['Fleets'],
  handlers: 'functions/http/fleets',
  access: 'fleet',
  scope: 'vehicles:manage',
  family: 'fleets',
  role: 'api',
  idempotent: false,
});

export const createFleetOperation = /* @__PURE__ */ fleetOperation({
  operationId: 'createFleet',
  route: 'POST /v1/fleets',
  summary: 'Provision a fleet and grant it to the calling partner',
  description: 'Creates the fleet and the partner grant in one transaction and records `fleet.provisioned`.',
  request: { body: createFleetBody },
  responses: [{ status: 201, description: 'The new fleet', schema: fleetSchema }],
});

export const listFleetsOperation = /* @__PURE__ */ fleetOperation({
  operationId: 'listFleets',
  route: 'GET /v1/fleets',
  summary: "List the partner's granted fleets",
  request: { query: listFleetsQuery },
  responses: [{ status: 200, description: 'Granted fleets, oldest first', schema: fleetPage }],
});

export const getFleetOperation = /* @__PURE__ */ fleetOperation({
  operationId: 'getFleet',
  route: 'GET /v1/fleets/{id}',
  summary: 'Get a granted fleet',
  request: { params: fleetIdParams },
  responses: [{ status: 200, description: 'The fleet', schema: fleetSchema }],
});

export const updateFleetOperation = /* @__PURE__ */ fleetOperation({
  operationId: 'updateFleet',
  route: 'PATCH /v1/fleets/{id}',
  summary:
    'Change a fleet’s name, contact_email, external_ref, default_min_arrival_fuel_percent, assumed_departure_fuel_percent, fuel_tax_treatment or fuel_program',
  description:
    '`fuel_program` replaces the fleet’s fuel card program whole: the chains where its card is accepted, the discount at each, and the rule plans keep (`required`, `preferred` with a per-gallon penalty, or `none`).',
  request: { params: fleetIdParams, body: updateFleetBody },
  responses: [{ status: 200, description: 'The updated fleet', schema: fleetSchema }],
});

export const deleteFleetOperation = /* @__PURE__ */ fleetOperation({
  operationId: 'deleteFleet',
  route: 'DELETE /v1/fleets/{id}',
  summary: 'Deactivate a fleet (soft): the grant is revoked and the fleet marked inactive',
  request: { params: fleetIdParams },
  responses: [{ status: 204, description: 'Deactivated' }],
});

export const getActingFleetOperation = /* @__PURE__ */ actingFleetOperation({
  operationId: 'getActingFleet',
  route: 'GET /v1/fleet',
  summary: 'The fleet the call acts on, with its settings',
  description:
    'A company key’s own fleet, or the fleet a partner key names in SVC-Fleet: the same Fleet object as GET /v1/fleets/{id}.',
  responses: [{ status: 200, description: 'The acting fleet', schema: fleetSchema }],
});

export const updateActingFleetOperation = /* @__PURE__ */ actingFleetOperation({
  operationId: 'updateActingFleet',
  route: 'PATCH /v1/fleet',
  summary:
    'Change the acting fleet’s settings (default_min_arrival_fuel_percent, assumed_departure_fuel_percent, fuel_tax_treatment, fuel_program)',
  description:
    'What a company key may change on its own fleet. Name, contact and external_ref stay with the partner (PATCH /v1/fleets/{id}). `fuel_program` (the fuel card program, replaced whole) is the company’s commercial terms: a company key needs `keys:manage`, the owner’s scope, to send it (else 403 `insufficient_scope` with `required_scope: keys:manage`); a partner key naming the fleet in SVC-Fleet may send it.',
  request: { body: updateFleetSettingsBody },
  responses: [{ status: 200, description: 'The updated fleet', schema: fleetSchema }],
});

export const fleetOperations = {
  createFleet: createFleetOperation,
  listFleets: listFleetsOperation,
  getFleet: getFleetOperation,
  updateFleet: updateFleetOperation,
  deleteFleet: deleteFleetOperation,
  getActingFleet: getActingFleetOperation,
  updateActingFleet: updateActingFleetOperation,
} satisfies Record<string, RouteDefinition>;
