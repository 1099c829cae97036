import { routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { latestLocationSchema } from '#shared/tracking/api/schemas.ts';
import {
  createdVehicleSchema,
  createVehicleBody,
  listVehiclesQuery,
  updateVehicleBody,
  vehiclePage,
  vehicleRefParams,
  vehicleSchema,
} from './schemas.ts';

const vehicleOperation = routeGroup({
  tags: ['Vehicles'],
  handlers: 'functions/http/vehicles',
  access: 'fleet',
  scope: 'vehicles:manage',
  family: 'vehicles',
  role: 'api',
  idempotent: false,
});

export const createVehicleOperation = /* @__PURE__ */ vehicleOperation({
  operationId: 'createVehicle',
  route: 'POST /v1/vehicles',
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
});

export const listVehiclesOperation = /* @__PURE__ */ vehicleOperation({
  operationId: 'listVehicles',
  route: 'GET /v1/vehicles',
  summary: "List the fleet's vehicles",
  request: { query: listVehiclesQuery },
  responses: [{ status: 200, description: 'Vehicles, oldest first', schema: vehiclePage }],
});

export const getVehicleOperation = /* @__PURE__ */ vehicleOperation({
  operationId: 'getVehicle',
  route: 'GET /v1/vehicles/{id}',
  summary: 'Get a vehicle by veh_ id or ext:<external_ref>',
  request: { params: vehicleRefParams },
  responses: [{ status: 200, description: 'The vehicle', schema: vehicleSchema }],
});

export const updateVehicleOperation = /* @__PURE__ */ vehicleOperation({
  operationId: 'updateVehicle',
  route: 'PATCH /v1/vehicles/{id}',
  summary: 'Change vehicle fields, including tank_size_gallons and estimated_mpg',
  request: { params: vehicleRefParams, body: updateVehicleBody },
  responses: [{ status: 200, description: 'The updated vehicle', schema: vehicleSchema }],
  errors: ['resource_conflict'],
});

export const deactivateVehicleOperation = /* @__PURE__ */ vehicleOperation({
  operationId: 'deactivateVehicle',
  route: 'POST /v1/vehicles/{id}/deactivate',
  summary: 'Deactivate a vehicle; affected operations then answer 409 vehicle_inactive',
  request: { params: vehicleRefParams },
  responses: [{ status: 200, description: 'The deactivated vehicle', schema: vehicleSchema }],
  errors: ['resource_conflict'],
});

export const reactivateVehicleOperation = /* @__PURE__ */ vehicleOperation({
  operationId: 'reactivateVehicle',
  route: 'POST /v1/vehicles/{id}/reactivate',
  summary: 'Reactivate a deactivated vehicle',
  request: { params: vehicleRefParams },
  responses: [{ status: 200, description: 'The reactivated vehicle', schema: vehicleSchema }],
  errors: ['resource_conflict'],
});

export const vehicleOperations = {
  createVehicle: createVehicleOperation,
  listVehicles: listVehiclesOperation,
  getVehicle: getVehicleOperation,
  updateVehicle: updateVehicleOperation,
  deactivateVehicle: deactivateVehicleOperation,
  reactivateVehicle: reactivateVehicleOperation,
} satisfies Record<string, RouteDefinition>;

/**
 * Apart from the other vehicle routes because it came later: openapi.json lists it after guidance,
 * and the table keeps the published order.
 */
export const getVehicleLocationOperation = /* @__PURE__ */ vehicleOperation({
  operationId: 'getVehicleLocation',
  route: 'GET /v1/vehicles/{id}/location',
  summary: "A vehicle's latest known position, with a freshness grade",
  description: '404 until the first breadcrumb lands.',
  request: { params: vehicleRefParams },
  responses: [{ status: 200, description: 'The latest position', schema: latestLocationSchema }],
});

export const vehicleLocationOperations = {
  getVehicleLocation: getVehicleLocationOperation,
} satisfies Record<string, RouteDefinition>;
