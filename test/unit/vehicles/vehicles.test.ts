import { describe, expect, it, vi } from 'vitest';
import { UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import { isPublicId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { ApiError } from '#shared/platform/errors.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import { GuardConflictError, type VehicleStore } from '#shared/vehicles/store/vehicles.ts';
import {
  assertActive,
  createVehicle,
  findVehicle,
  setVehicleStatus,
  updateVehicle,
} from '#shared/vehicles/usecases/vehicles.ts';
import { COMPANY_FLEET_ID, NOW_MS, VEHICLE_ID } from '../fixtures.ts';

const NOW = '2026-11-21T22:26:10.123000Z';
const VIN = '1XKYDP9X4NJ123456';

function truck(overrides: Partial<Vehicle> = {}): Vehicle {
  return {
    id: VEHICLE_ID,
    fleetId: COMPANY_FLEET_ID,
    externalRef: 'TRUCK-1',
    linkedExternalRefs: [],
    name: 'Truck one',
    vin: VIN,
    tankSizeGallons: 150,
    estimatedMpg: 6.5,
    licensePlate: null,
    fuelTaxTreatment: null,
    truckProfile: { ...UNSET_TRUCK_PROFILE },
    status: 'active',
    createdAt: '2026-11-01T08:00:00.000000Z',
    updatedAt: '2026-11-01T08:00:00.000000Z',
    version: 2,
    ...overrides,
  };
}

/** A vehicle store holding `stored` (by id, external refs and VIN), every method a vi.fn(). */
function fakeVehicleStore(stored: Vehicle[] = []) {
  const byId = new Map(stored.map((v) => [v.id, v]));
  return {
    get: vi.fn<VehicleStore['get']>(async (_fleetId, id) => byId.get(id) ?? null),
    getMany: vi.fn<VehicleStore['getMany']>(
      async (_fleetId, ids) => new Map(stored.filter((v) => ids.includes(v.id)).map((v) => [v.id, v])),
    ),
    idForExternalRef: vi.fn<VehicleStore['idForExternalRef']>(
      async (_fleetId, ref) =>
        stored.find((v) => v.externalRef === ref || v.linkedExternalRefs.includes(ref))?.id ?? null,
    ),
    idForVin: vi.fn<VehicleStore['idForVin']>(
      async (_fleetId, vin) => stored.find((v) => v.vin === vin)?.id ?? null,
    ),
    create: vi.fn<VehicleStore['create']>(async () => {}),
    replace: vi.fn<VehicleStore['replace']>(async () => {}),
    list: vi.fn<VehicleStore['list']>(async () => ({ data: [], next_cursor: null })),
  };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the use case to fail');
}

describe('findVehicle', () => {
  it('finds a vehicle by veh_ id in the acting fleet', async () => {
    // Prepare
    const vehicles = fakeVehicleStore([truck()]);

    // Act
    const found = await findVehicle({ vehicles }, COMPANY_FLEET_ID, VEHICLE_ID);

    // Assess
    expect(found.id).toBe(VEHICLE_ID);
    expect(vehicles.get).toHaveBeenCalledWith(COMPANY_FLEET_ID, VEHICLE_ID);
  });

  it('finds a vehicle by ext:<external_ref>, primary or linked', async () => {
    // Prepare
    const vehicles = fakeVehicleStore([truck({ linkedExternalRefs: ['UNIT-7'] })]);

    // Act
    const byPrimary = await findVehicle({ vehicles }, COMPANY_FLEET_ID, 'ext:TRUCK-1');
    const byLinked = await findVehicle({ vehicles }, COMPANY_FLEET_ID, 'ext:UNIT-7');

    // Assess
    expect([byPrimary.id, byLinked.id]).toEqual([VEHICLE_ID, VEHICLE_ID]);
    expect(vehicles.idForExternalRef).toHaveBeenCalledWith(COMPANY_FLEET_ID, 'TRUCK-1');
  });

  it('answers 404 resource_not_found for an unknown vehicle, or the code a caller asks for', async () => {
    // Prepare
    const vehicles = fakeVehicleStore([]);

    // Act
    const onPath = await failure(findVehicle({ vehicles }, COMPANY_FLEET_ID, 'ext:GHOST'));
    const inBatch = await failure(findVehicle({ vehicles }, COMPANY_FLEET_ID, VEHICLE_ID, 'unknown_vehicle'));

    // Assess
    expect([onPath.code, onPath.status]).toEqual(['resource_not_found', 404]);
    expect([inBatch.code, inBatch.status]).toEqual(['unknown_vehicle', 404]);
  });
});

describe('assertActive', () => {
  it('refuses a deactivated vehicle with 409 vehicle_inactive, and lets an active one pass', () => {
    // Act
    let error: unknown;
    try {
      assertActive(truck({ status: 'inactive' }));
    } catch (caught) {
      error = caught;
    }

    // Assess
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('vehicle_inactive');
    expect(() => assertActive(truck())).not.toThrow();
  });
});

describe('createVehicle', () => {
  it('creates an active vehicle with a time-sortable veh_ id and the clock’s timestamps', async () => {
    // Prepare
    const vehicles = fakeVehicleStore([]);

    // Act
    const { vehicle, mergedWithExisting } = await createVehicle(
      { vehicles, clock: fixedClock(NOW_MS) },
      COMPANY_FLEET_ID,
      { external_ref: 'TRUCK-9', tank_size_gallons: 120 },
    );

    // Assess
    expect(mergedWithExisting).toBe(false);
    expect(isPublicId('vehicle', vehicle.id)).toBe(true);
    expect(vehicle).toMatchObject({
      fleetId: COMPANY_FLEET_ID,
      externalRef: 'TRUCK-9',
      linkedExternalRefs: [],
      name: null,
      vin: null,
      tankSizeGallons: 120,
      estimatedMpg: null,
      licensePlate: null,
      fuelTaxTreatment: null,
      truckProfile: { ...UNSET_TRUCK_PROFILE },
      status: 'active',
      createdAt: NOW,
      updatedAt: NOW,
      version: 1,
    });
    expect(vehicles.create).toHaveBeenCalledWith(vehicle);
  });

  it('links the new external_ref to the vehicle that already has the VIN, without creating one', async () => {
    // Prepare
    const existing = truck();
    const vehicles = fakeVehicleStore([existing]);

    // Act
    const { vehicle, mergedWithExisting } = await createVehicle(
      { vehicles, clock: fixedClock(NOW_MS) },
      COMPANY_FLEET_ID,
      { external_ref: 'UNIT-7', vin: VIN },
    );

    // Assess
    expect(mergedWithExisting).toBe(true);
    expect(vehicle.id).toBe(existing.id);
    expect(vehicle.linkedExternalRefs).toEqual(['UNIT-7']);
    expect(vehicle.version).toBe(existing.version + 1);
    expect(vehicle.updatedAt).toBe(NOW);
    expect(vehicles.create).not.toHaveBeenCalled();
    expect(vehicles.replace).toHaveBeenCalledWith(existing, vehicle);
  });

  it('answers a repeated merge with the vehicle as it is, writing nothing', async () => {
    // Prepare
    const existing = truck({ linkedExternalRefs: ['UNIT-7'] });
    const vehicles = fakeVehicleStore([existing]);

    // Act
    const result = await createVehicle({ vehicles, clock: fixedClock(NOW_MS) }, COMPANY_FLEET_ID, {
      external_ref: 'UNIT-7',
      vin: VIN,
    });

    // Assess
    expect(result).toEqual({ vehicle: existing, mergedWithExisting: true });
    expect(vehicles.replace).not.toHaveBeenCalled();
  });

  it('answers 409 resource_conflict naming the field and the vehicle that holds the external_ref', async () => {
    // Prepare
    const vehicles = fakeVehicleStore([truck()]);
    vehicles.create.mockRejectedValue(new GuardConflictError({ field: 'external_ref', value: 'TRUCK-1' }));

    // Act
    const error = await failure(
      createVehicle({ vehicles, clock: fixedClock(NOW_MS) }, COMPANY_FLEET_ID, { external_ref: 'TRUCK-1' }),
    );

    // Assess
    expect([error.code, error.status]).toEqual(['resource_conflict', 409]);
    expect(error.detail).toBe(`external_ref TRUCK-1 already belongs to vehicle ${VEHICLE_ID} in this fleet.`);
    expect(error.hint).toBe(
      `use a different external_ref, or work with that vehicle: GET /v1/vehicles/${VEHICLE_ID}`,
    );
    expect(vehicles.idForExternalRef).toHaveBeenCalledWith(COMPANY_FLEET_ID, 'TRUCK-1');
  });

  it('names no vehicle when the holder is gone by the time the conflict is reported', async () => {
    // Prepare: the guard refused the write, but the vehicle holding it was renamed meanwhile.
    const vehicles = fakeVehicleStore([]);
    vehicles.create.mockRejectedValue(new GuardConflictError({ field: 'external_ref', value: 'TRUCK-1' }));

    // Act
    const error = await failure(
      createVehicle({ vehicles, clock: fixedClock(NOW_MS) }, COMPANY_FLEET_ID, { external_ref: 'TRUCK-1' }),
    );

    // Assess
    expect(error.code).toBe('resource_conflict');
    expect(error.detail).toBe('external_ref TRUCK-1 already belongs to another vehicle in this fleet.');
  });

  it('merges into the winner when a concurrent create took the VIN first', async () => {
    // Prepare: the VIN is free at first, then held by the vehicle the other request created.
    const winner = truck();
    const vehicles = fakeVehicleStore([winner]);
    vehicles.idForVin.mockResolvedValueOnce(null);
    vehicles.create.mockRejectedValue(new GuardConflictError({ field: 'vin', value: VIN }));

    // Act
    const result = await createVehicle({ vehicles, clock: fixedClock(NOW_MS) }, COMPANY_FLEET_ID, {
      external_ref: 'UNIT-7',
      vin: VIN,
    });

    // Assess
    expect(result.mergedWithExisting).toBe(true);
    expect(result.vehicle.id).toBe(winner.id);
    expect(result.vehicle.linkedExternalRefs).toEqual(['UNIT-7']);
  });
});

describe('updateVehicle and setVehicleStatus', () => {
  it('writes the changed vehicle over the one it read', async () => {
    // Prepare
    const before = truck();
    const vehicles = fakeVehicleStore([before]);

    // Act
    const after = await updateVehicle({ vehicles, clock: fixedClock(NOW_MS) }, COMPANY_FLEET_ID, VEHICLE_ID, {
      tank_size_gallons: 200,
      license_plate: 'TX 999',
    });

    // Assess
    expect(after).toMatchObject({ tankSizeGallons: 200, licensePlate: 'TX 999', updatedAt: NOW, version: 3 });
    expect(vehicles.replace).toHaveBeenCalledWith(before, after);
  });

  it('sets a fuel tax treatment override, clears it with null, and leaves it alone when absent', async () => {
    // Prepare
    const vehicles = fakeVehicleStore([truck()]);
    const deps = { vehicles, clock: fixedClock(NOW_MS) };

    // Act
    const pump = await updateVehicle(deps, COMPANY_FLEET_ID, VEHICLE_ID, { fuel_tax_treatment: 'pump' });
    vehicles.get.mockResolvedValueOnce(pump);
    const renamed = await updateVehicle(deps, COMPANY_FLEET_ID, VEHICLE_ID, { name: 'Yard truck' });
    vehicles.get.mockResolvedValueOnce(renamed);
    const cleared = await updateVehicle(deps, COMPANY_FLEET_ID, VEHICLE_ID, { fuel_tax_treatment: null });

    // Assess
    expect(pump.fuelTaxTreatment).toBe('pump');
    expect(renamed.fuelTaxTreatment).toBe('pump');
    expect(cleared.fuelTaxTreatment).toBeNull();
    expect(vehicles.replace).toHaveBeenCalledTimes(3);
  });

  it('answers a change to what is already stored with the vehicle, writing nothing', async () => {
    // Prepare
    const vehicles = fakeVehicleStore([truck({ status: 'inactive' })]);

    // Act
    const result = await setVehicleStatus(
      { vehicles, clock: fixedClock(NOW_MS) },
      COMPANY_FLEET_ID,
      VEHICLE_ID,
      'inactive',
    );

    // Assess
    expect(result.status).toBe('inactive');
    expect(vehicles.replace).not.toHaveBeenCalled();
  });

  it('retries after losing a race, re-reading the vehicle', async () => {
    // Prepare
    const vehicles = fakeVehicleStore([truck()]);
    vehicles.replace.mockRejectedValueOnce(new ApiError('resource_conflict', 'Lost a race.'));

    // Act
    const result = await setVehicleStatus(
      { vehicles, clock: fixedClock(NOW_MS) },
      COMPANY_FLEET_ID,
      VEHICLE_ID,
      'inactive',
    );

    // Assess
    expect(result.status).toBe('inactive');
    expect(vehicles.replace).toHaveBeenCalledTimes(2);
    expect(vehicles.get).toHaveBeenCalledTimes(2);
  });

  it('answers 409 resource_conflict when the new external_ref belongs to another vehicle', async () => {
    // Prepare
    const vehicles = fakeVehicleStore([truck()]);
    vehicles.replace.mockRejectedValue(new GuardConflictError({ field: 'external_ref', value: 'TRUCK-2' }));

    // Act
    const error = await failure(
      updateVehicle({ vehicles, clock: fixedClock(NOW_MS) }, COMPANY_FLEET_ID, VEHICLE_ID, {
        external_ref: 'TRUCK-2',
      }),
    );

    // Assess
    expect(error.code).toBe('resource_conflict');
    expect(vehicles.replace).toHaveBeenCalledTimes(1);
  });

  it('names the vehicle that holds a VIN the change asks for', async () => {
    // Prepare
    const other = truck({
      id: 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W9',
      externalRef: 'TRUCK-9',
      vin: '1FUJGLDR0CLBP8834',
    });
    const vehicles = fakeVehicleStore([truck(), other]);
    vehicles.replace.mockRejectedValue(new GuardConflictError({ field: 'vin', value: '1FUJGLDR0CLBP8834' }));

    // Act
    const error = await failure(
      updateVehicle({ vehicles, clock: fixedClock(NOW_MS) }, COMPANY_FLEET_ID, VEHICLE_ID, {
        vin: '1FUJGLDR0CLBP8834',
      }),
    );

    // Assess
    expect(error.detail).toBe(`vin 1FUJGLDR0CLBP8834 already belongs to vehicle ${other.id} in this fleet.`);
  });
});
