import { describe, expect, it } from 'vitest';
import { UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import { applyVehicleChanges, externalRefsOf, type Vehicle } from '#shared/vehicles/domain/vehicle.ts';

const CREATED = '2026-11-01T08:00:00.000000Z';
const LATER = '2026-11-21T22:26:10.123000Z';

function truck(overrides: Partial<Vehicle> = {}): Vehicle {
  return {
    id: 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4',
    fleetId: 'flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2',
    externalRef: 'TRUCK-1',
    linkedExternalRefs: ['TRUCK-1-OLD', 'UNIT-7'],
    name: 'Truck one',
    vin: '1XKYDP9X4NJ123456',
    tankSizeGallons: 150,
    estimatedMpg: 6.5,
    licensePlate: 'TX 123',
    fuelTaxTreatment: null,
    truckProfile: { ...UNSET_TRUCK_PROFILE },
    status: 'active',
    createdAt: CREATED,
    updatedAt: CREATED,
    version: 3,
    ...overrides,
  };
}

describe('applyVehicleChanges', () => {
  it('changes the given fields, bumps the version and stamps the update time', () => {
    // Prepare
    const vehicle = truck();

    // Act
    const next = applyVehicleChanges(vehicle, { tankSizeGallons: 200, estimatedMpg: 7.25 }, LATER);

    // Assess
    expect(next).toEqual({
      ...vehicle,
      tankSizeGallons: 200,
      estimatedMpg: 7.25,
      updatedAt: LATER,
      version: 4,
    });
  });

  it('leaves a field given as undefined untouched, and clears one given as null', () => {
    // Act
    const next = applyVehicleChanges(truck(), { name: undefined, licensePlate: null, vin: null }, LATER);

    // Assess
    expect(next.name).toBe('Truck one');
    expect(next.licensePlate).toBeNull();
    expect(next.vin).toBeNull();
  });

  it('never touches id, fleet or creation time', () => {
    // Act
    const next = applyVehicleChanges(truck(), { status: 'inactive' }, LATER);

    // Assess
    expect(next.status).toBe('inactive');
    expect([next.id, next.fleetId, next.createdAt]).toEqual([truck().id, truck().fleetId, CREATED]);
  });

  it('does not mutate the vehicle it was given', () => {
    // Prepare
    const vehicle = truck();
    const before = structuredClone(vehicle);

    // Act
    applyVehicleChanges(vehicle, { externalRef: 'UNIT-7', name: 'Renamed' }, LATER);

    // Assess
    expect(vehicle).toEqual(before);
  });

  it('drops a linked ref that becomes the primary, so no ref is listed twice', () => {
    // Act
    const next = applyVehicleChanges(truck(), { externalRef: 'UNIT-7' }, LATER);

    // Assess
    expect(next.externalRef).toBe('UNIT-7');
    expect(next.linkedExternalRefs).toEqual(['TRUCK-1-OLD']);
    expect(new Set(externalRefsOf(next)).size).toBe(externalRefsOf(next).length);
  });

  it('keeps the linked refs when the primary moves to a new ref', () => {
    // Act
    const next = applyVehicleChanges(truck(), { externalRef: 'TRUCK-1-NEW' }, LATER);

    // Assess
    expect(next.linkedExternalRefs).toEqual(['TRUCK-1-OLD', 'UNIT-7']);
  });
});

describe('externalRefsOf', () => {
  it('lists the primary ref first, then the linked ones', () => {
    // Act / Assess
    expect(externalRefsOf(truck())).toEqual(['TRUCK-1', 'TRUCK-1-OLD', 'UNIT-7']);
  });
});
