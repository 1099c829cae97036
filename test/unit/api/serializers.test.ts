import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { fleetSchema } from '../../../shared/api/schemas/fleets.ts';
import { vehicleSchema } from '../../../shared/api/schemas/vehicles.ts';
import { fleetResource } from '../../../shared/api/serializers/fleets.ts';
import { vehicleResource } from '../../../shared/api/serializers/vehicles.ts';
import type { Fleet } from '../../../shared/domain/fleet.ts';
import type { Vehicle } from '../../../shared/domain/vehicle.ts';
import { canonicalJson } from '../../../shared/platform/http/json.ts';
import { fromFleetItem, toFleetItem } from '../../../shared/store/fleets.ts';
import { fromVehicleItem, toVehicleItem } from '../../../shared/store/vehicles.ts';

const FLEET_MEMBERS = [
  'id',
  'name',
  'external_ref',
  'contact_email',
  'timezone',
  'status',
  'created_at',
  'updated_at',
];
const VEHICLE_MEMBERS = [
  'id',
  'external_ref',
  'linked_external_refs',
  'name',
  'vin',
  'tank_size_gallons',
  'estimated_mpg',
  'license_plate',
  'status',
  'created_at',
  'updated_at',
];

const fleet: Fleet = {
  id: 'flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2',
  name: 'Acme Freight',
  externalRef: 'ACME-1',
  contactEmail: 'ops@acme.example',
  timezone: 'America/Chicago',
  status: 'active',
  partnerId: 'ptr_01JD7ZK3M4N5P6Q7R8S9T0V1W3',
  createdAt: '2026-11-21T22:26:10.123000Z',
  updatedAt: '2026-11-21T22:26:10.123000Z',
};

const vehicle: Vehicle = {
  id: 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4',
  fleetId: fleet.id,
  externalRef: 'TRUCK-1',
  linkedExternalRefs: [],
  name: 'Truck one',
  vin: '1XKYDP9X4NJ123456',
  tankSizeGallons: 150.5,
  estimatedMpg: 6.25,
  licensePlate: null,
  status: 'active',
  createdAt: '2026-11-21T22:26:10.123000Z',
  updatedAt: '2026-11-21T22:26:10.123000Z',
  version: 1,
};

/** What a later GET reads: the item as DynamoDB stores it (the document client's options). */
function throughDynamo<T extends Record<string, unknown>>(item: T): Record<string, unknown> {
  return unmarshall(marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: false }));
}

describe('fleetResource', () => {
  it('writes the members in the documented order', () => {
    // Act
    const members = Object.keys(fleetResource(fleet));

    // Assess
    expect(members).toEqual(FLEET_MEMBERS);
    expect(Object.keys(fleetSchema.shape)).toEqual(FLEET_MEMBERS);
  });

  it('never exposes internal fields (the partner that provisioned the fleet)', () => {
    // Act
    const text = canonicalJson(fleetResource(fleet));

    // Assess
    expect(text).not.toContain(fleet.partnerId as string);
  });

  it.each([
    ['with every optional field', fleet],
    ['with the optional fields empty', { ...fleet, externalRef: null, contactEmail: null, partnerId: null }],
  ])('answers a GET byte for byte like the create response, %s', (_why, record) => {
    // Prepare
    const createResponse = canonicalJson(fleetResource(record));

    // Act
    const getResponse = canonicalJson(
      fleetResource(fromFleetItem(throughDynamo({ ...toFleetItem(record) }))),
    );

    // Assess
    expect(getResponse).toBe(createResponse);
  });
});

describe('vehicleResource', () => {
  it('writes the members in the documented order', () => {
    // Act
    const members = Object.keys(vehicleResource(vehicle));

    // Assess
    expect(members).toEqual(VEHICLE_MEMBERS);
    expect(Object.keys(vehicleSchema.shape)).toEqual(VEHICLE_MEMBERS);
  });

  it('never exposes internal fields (fleet, version)', () => {
    // Act
    const resource = vehicleResource(vehicle) as Record<string, unknown>;

    // Assess
    expect(resource).not.toHaveProperty('fleet_id');
    expect(resource).not.toHaveProperty('version');
  });

  it.each([
    ['with every field set', vehicle],
    [
      'with the optional fields empty',
      { ...vehicle, name: null, vin: null, tankSizeGallons: null, estimatedMpg: null, licensePlate: null },
    ],
    ['after a VIN merge linked further refs', { ...vehicle, linkedExternalRefs: ['UNIT-7', 'T1'] }],
  ])('answers a GET byte for byte like the create response, %s', (_why, record) => {
    // Prepare
    const createResponse = canonicalJson(vehicleResource(record));

    // Act
    const getResponse = canonicalJson(vehicleResource(fromVehicleItem(throughDynamo(toVehicleItem(record)))));

    // Assess
    expect(getResponse).toBe(createResponse);
  });
});
