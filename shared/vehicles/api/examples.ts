import { type ExamplesFor, rejected } from '#shared/api/example.ts';
import {
  IDS,
  NOW,
  POSITION,
  RECEIVED_AT,
  RECORDED_AT,
  VEHICLE,
  VEHICLE_CREATED_AT,
} from '#shared/api/example-fixtures.ts';
import { ApiError } from '#shared/platform/errors.ts';
import type { vehicleLocationOperations, vehicleOperations } from './operations.ts';
import { createVehicleBody, updateVehicleBody } from './schemas.ts';

const vehicle = {
  id: IDS.vehicle,
  external_ref: VEHICLE.external_ref,
  linked_external_refs: [],
  name: VEHICLE.name,
  vin: VEHICLE.vin,
  tank_size_gallons: VEHICLE.tank_size_gallons,
  estimated_mpg: VEHICLE.estimated_mpg,
  license_plate: VEHICLE.license_plate,
  fuel_tax_treatment: null,
  // The truck's own height and length; the rest is its fleet's, else the standard truck's.
  truck_profile: {
    height_inches: 162,
    width_inches: null,
    length_feet: 72,
    gross_weight_lbs: null,
    axle_count: null,
    hazardous_cargo: null,
  },
  status: 'active',
  created_at: VEHICLE_CREATED_AT,
  updated_at: VEHICLE_CREATED_AT,
};

const byId = { id: IDS.vehicle };
const missing = new ApiError('resource_not_found', `Vehicle ${IDS.vehicle} was not found in this fleet.`);

export const vehicleExamples = {
  createVehicle: {
    request: {
      body: {
        external_ref: VEHICLE.external_ref,
        name: VEHICLE.name,
        vin: VEHICLE.vin,
        tank_size_gallons: VEHICLE.tank_size_gallons,
        estimated_mpg: VEHICLE.estimated_mpg,
        license_plate: VEHICLE.license_plate,
        truck_profile: { height_inches: 162, length_feet: 72 },
      },
    },
    responses: {
      201: vehicle,
      // The same VIN sent again under the TMS's new reference: linked, not duplicated.
      200: {
        ...vehicle,
        linked_external_refs: ['UNIT-7781'],
        updated_at: NOW,
        merged_with_existing: true,
      },
    },
    problem: rejected('body', createVehicleBody, {
      external_ref: VEHICLE.external_ref,
      vin: '3AKJHHDR7NSNB452',
      estimated_mpg: 0,
    }),
  },
  listVehicles: {
    request: { query: { status: 'active', limit: '50' } },
    responses: {
      200: {
        data: [vehicle],
        next_cursor:
          'eyJzIjoidmVoaWNsZXM6YWN0aXZlIiwiayI6eyJwayI6IkYjZmx0In0sImUiOjE3OTUzMDAwMDB9.q3Xv0mE1mZ2Yk4nJd2hVtA',
      },
    },
    problem: new ApiError('invalid_cursor', 'The cursor belongs to another list or filter.'),
  },
  getVehicle: {
    request: { params: byId },
    responses: { 200: vehicle },
    problem: missing,
  },
  updateVehicle: {
    // A truck that never leaves its home state is not IFTA-qualified: it prices at the pump.
    request: {
      params: byId,
      body: { tank_size_gallons: 300, estimated_mpg: 7.1, fuel_tax_treatment: 'pump' },
    },
    responses: {
      200: {
        ...vehicle,
        tank_size_gallons: 300,
        estimated_mpg: 7.1,
        fuel_tax_treatment: 'pump',
        updated_at: NOW,
      },
    },
    problem: rejected('body', updateVehicleBody, { tank_size_liters: 1135 }),
  },
  deactivateVehicle: {
    request: { params: byId },
    responses: { 200: { ...vehicle, status: 'inactive', updated_at: NOW } },
    problem: missing,
  },
  reactivateVehicle: {
    request: { params: byId },
    responses: { 200: { ...vehicle, updated_at: NOW } },
    problem: missing,
  },
} satisfies ExamplesFor<typeof vehicleOperations>;

export const vehicleLocationExamples = {
  getVehicleLocation: {
    request: { params: { id: `ext:${VEHICLE.external_ref}` } },
    responses: {
      200: {
        vehicle_id: IDS.vehicle,
        ...POSITION,
        recorded_at: RECORDED_AT,
        received_at: RECEIVED_AT,
        fuel_level_percent: 38.5,
        speed_mph: 63,
        heading_degrees: 2,
        driver_ref: 'DRV-1187',
        address: 'I-35 N, Valley View, TX 76272',
        freshness: 'live',
        age_seconds: 22,
      },
    },
    problem: new ApiError('resource_not_found', `Vehicle ${IDS.vehicle} has not reported a position yet.`),
  },
} satisfies ExamplesFor<typeof vehicleLocationOperations>;
