import type { RouteDefinition } from '../../platform/http/route-definition.ts';
import {
  createFleetBody,
  fleetIdParams,
  fleetPage,
  fleetSchema,
  listFleetsQuery,
  updateFleetBody,
} from '../schemas/fleets.ts';
import { routeGroup } from './route-group.ts';

const fleetRoute = routeGroup({
  tags: ['Fleets'],
  access: 'partner',
  scope: 'fleets:manage',
  family: 'fleets',
  role: 'api',
  idempotent: false,
});

export const fleetRoutes = {
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
} satisfies Record<string, RouteDefinition>;
