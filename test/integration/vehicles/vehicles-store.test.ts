import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { createCursorCodec } from '#shared/table/cursor.ts';
import { createVehicleStore } from '#shared/vehicles/store/vehicles.ts';
import {
  createVehicle,
  findVehicle,
  setVehicleStatus,
  updateVehicle,
} from '#shared/vehicles/usecases/vehicles.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';

const client = testDocumentClient();
let table: string;
let deps: Parameters<typeof createVehicle>[0];

beforeAll(async () => {
  table = await createTestTable(client, 'vehicles');
  deps = {
    vehicles: createVehicleStore(client, table, createCursorCodec('test-key')),
    clock: fixedClock(Date.parse('2026-11-21T12:00:00Z')),
  };
});
afterAll(() => deleteTestTable(client, table));

const freshFleet = () => newId('fleet');
const VIN = '1XKYDP9X4NJ123456';

async function expectApiError(promise: Promise<unknown>, code: string): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe(code);
  return error as ApiError;
}

describe('creating vehicles', () => {
  it('stores a vehicle findable by id and by external_ref', async () => {
    const fleetId = freshFleet();
    const { vehicle, mergedWithExisting } = await createVehicle(deps, fleetId, {
      external_ref: 'T-1',
      tank_size_gallons: 250,
    });
    expect(mergedWithExisting).toBe(false);
    expect(await findVehicle(deps, fleetId, vehicle.id)).toEqual(vehicle);
    expect(await findVehicle(deps, fleetId, 'ext:T-1')).toEqual(vehicle);
  });

  it('answers 409 resource_conflict for a second vehicle with the same external_ref, naming the first', async () => {
    const fleetId = freshFleet();
    const { vehicle } = await createVehicle(deps, fleetId, { external_ref: 'T-1' });
    const error = await expectApiError(
      createVehicle(deps, fleetId, { external_ref: 'T-1' }),
      'resource_conflict',
    );
    expect(error.detail).toBe(`external_ref T-1 already belongs to vehicle ${vehicle.id} in this fleet.`);
    expect(error.hint).toBe(
      `use a different external_ref, or work with that vehicle: GET /v1/vehicles/${vehicle.id}`,
    );
  });

  it('lets two fleets use the same external_ref independently', async () => {
    const [a, b] = [freshFleet(), freshFleet()];
    const first = await createVehicle(deps, a, { external_ref: 'SHARED' });
    const second = await createVehicle(deps, b, { external_ref: 'SHARED' });
    expect(second.vehicle.id).not.toBe(first.vehicle.id);
    await expectApiError(findVehicle(deps, a, second.vehicle.id), 'resource_not_found');
  });

  it('links a new external_ref to the vehicle with the same VIN instead of creating another', async () => {
    const fleetId = freshFleet();
    const original = await createVehicle(deps, fleetId, { external_ref: 'ELD-7', vin: VIN });
    const merged = await createVehicle(deps, fleetId, { external_ref: 'TMS-7', vin: VIN });

    expect(merged.mergedWithExisting).toBe(true);
    expect(merged.vehicle.id).toBe(original.vehicle.id);
    expect(merged.vehicle.linkedExternalRefs).toEqual(['TMS-7']);
    expect((await findVehicle(deps, fleetId, 'ext:TMS-7')).id).toBe(original.vehicle.id);
    const page = await deps.vehicles.list(fleetId, undefined, 10, undefined);
    expect(page.data).toHaveLength(1);
  });

  it('keeps exactly one vehicle when many creates with the same external_ref race', async () => {
    const fleetId = freshFleet();
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, () => createVehicle(deps, fleetId, { external_ref: 'RACE-1' })),
    );
    const winners = attempts.filter((a) => a.status === 'fulfilled');
    const losers = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(winners).toHaveLength(1);
    for (const loser of losers) expect((loser.reason as ApiError).code).toBe('resource_conflict');
    expect((await deps.vehicles.list(fleetId, undefined, 50, undefined)).data).toHaveLength(1);
  });

  it('keeps exactly one vehicle when creates with the same VIN and different refs race', async () => {
    const fleetId = freshFleet();
    const attempts = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        createVehicle(deps, fleetId, { external_ref: `REF-${i}`, vin: VIN }),
      ),
    );
    // Spec: a lost race answers the existing vehicle or 409, never a duplicate.
    const results = attempts.flatMap((a, i) =>
      a.status === 'fulfilled' ? [{ ...a.value, ref: `REF-${i}` }] : [],
    );
    for (const a of attempts) {
      if (a.status === 'rejected') expect((a.reason as ApiError).code).toBe('resource_conflict');
    }
    expect(new Set(results.map((r) => r.vehicle.id)).size).toBe(1);
    expect(results.filter((r) => !r.mergedWithExisting)).toHaveLength(1);
    const all = (await deps.vehicles.list(fleetId, undefined, 50, undefined)).data;
    expect(all).toHaveLength(1);
    const stored = all[0];
    expect([stored?.externalRef, ...(stored?.linkedExternalRefs ?? [])].sort()).toEqual(
      results.map((r) => r.ref).sort(),
    );
  });
});

describe('updating vehicles', () => {
  it('moves the external_ref guard: the old ref stops resolving, the new one resolves', async () => {
    const fleetId = freshFleet();
    const { vehicle } = await createVehicle(deps, fleetId, { external_ref: 'OLD' });
    await updateVehicle(deps, fleetId, vehicle.id, { external_ref: 'NEW', estimated_mpg: 6.5 });
    expect((await findVehicle(deps, fleetId, 'ext:NEW')).estimatedMpg).toBe(6.5);
    await expectApiError(findVehicle(deps, fleetId, 'ext:OLD'), 'resource_not_found');
    // The freed ref can be used by a new vehicle.
    await createVehicle(deps, fleetId, { external_ref: 'OLD' });
  });

  it('refuses an external_ref or VIN held by another vehicle and changes nothing', async () => {
    const fleetId = freshFleet();
    const { vehicle: a } = await createVehicle(deps, fleetId, { external_ref: 'A', vin: VIN });
    const { vehicle: b } = await createVehicle(deps, fleetId, { external_ref: 'B' });
    const taken = await expectApiError(
      updateVehicle(deps, fleetId, b.id, { external_ref: 'A', name: 'x' }),
      'resource_conflict',
    );
    expect(taken.detail).toBe(`external_ref A already belongs to vehicle ${a.id} in this fleet.`);
    const vin = await expectApiError(updateVehicle(deps, fleetId, b.id, { vin: VIN }), 'resource_conflict');
    expect(vin.detail).toBe(`vin ${VIN} already belongs to vehicle ${a.id} in this fleet.`);
    expect(await findVehicle(deps, fleetId, b.id)).toEqual(b);
  });

  it('clears optional fields with null', async () => {
    const fleetId = freshFleet();
    const { vehicle } = await createVehicle(deps, fleetId, { external_ref: 'C', name: 'Truck', vin: VIN });
    const updated = await updateVehicle(deps, fleetId, vehicle.id, { name: null, vin: null });
    expect(updated.name).toBeNull();
    expect(updated.vin).toBeNull();
    // The VIN guard is gone with it: the VIN can be given to another vehicle.
    const other = await createVehicle(deps, fleetId, { external_ref: 'D', vin: VIN });
    expect(other.mergedWithExisting).toBe(false);
  });
});

describe('status and lists', () => {
  it('lists by status and pages with cursors that only work on their own list', async () => {
    const fleetId = freshFleet();
    const created = [];
    for (let i = 0; i < 5; i++)
      created.push((await createVehicle(deps, fleetId, { external_ref: `L-${i}` })).vehicle);
    await setVehicleStatus(deps, fleetId, created[1]?.id as string, 'inactive');
    await setVehicleStatus(deps, fleetId, created[3]?.id as string, 'inactive');

    const inactive = await deps.vehicles.list(fleetId, 'inactive', 10, undefined);
    expect(inactive.data.map((v) => v.externalRef)).toEqual(['L-1', 'L-3']);
    const active = await deps.vehicles.list(fleetId, 'active', 10, undefined);
    expect(active.data.map((v) => v.externalRef)).toEqual(['L-0', 'L-2', 'L-4']);

    const first = await deps.vehicles.list(fleetId, undefined, 2, undefined);
    expect(first.next_cursor).not.toBeNull();
    const second = await deps.vehicles.list(fleetId, undefined, 2, first.next_cursor ?? undefined);
    const third = await deps.vehicles.list(fleetId, undefined, 2, second.next_cursor ?? undefined);
    expect([...first.data, ...second.data, ...third.data].map((v) => v.externalRef)).toEqual([
      'L-0',
      'L-1',
      'L-2',
      'L-3',
      'L-4',
    ]);

    await expectApiError(
      deps.vehicles.list(fleetId, 'active', 2, first.next_cursor ?? undefined),
      'invalid_cursor',
    );
    await expectApiError(
      deps.vehicles.list(freshFleet(), undefined, 2, first.next_cursor ?? undefined),
      'invalid_cursor',
    );
  });

  it('deactivating twice is harmless and reactivating restores the vehicle', async () => {
    const fleetId = freshFleet();
    const { vehicle } = await createVehicle(deps, fleetId, { external_ref: 'S-1' });
    await setVehicleStatus(deps, fleetId, 'ext:S-1', 'inactive');
    const again = await setVehicleStatus(deps, fleetId, vehicle.id, 'inactive');
    expect(again.status).toBe('inactive');
    const back = await setVehicleStatus(deps, fleetId, vehicle.id, 'active');
    expect(back.status).toBe('active');
    expect(back.version).toBe(vehicle.version + 2);
  });
});

describe('reading many vehicles at once', () => {
  it('returns the fleet’s vehicles among the ids, each once, past 100 ids and never another fleet’s', async () => {
    const [fleetId, otherFleet] = [freshFleet(), freshFleet()];
    const first = (await createVehicle(deps, fleetId, { external_ref: 'M-1' })).vehicle;
    const second = (await createVehicle(deps, fleetId, { external_ref: 'M-2' })).vehicle;
    const foreign = (await createVehicle(deps, otherFleet, { external_ref: 'M-1' })).vehicle;
    // 150 ids: unknown ones, duplicates, another fleet's, and one vehicle beyond the first 100 keys.
    const unknown = Array.from({ length: 146 }, () => newId('vehicle'));
    const ids = [first.id, ...unknown.slice(0, 120), foreign.id, first.id, second.id, ...unknown.slice(120)];

    const found = await deps.vehicles.getMany(fleetId, ids);

    expect([...found.keys()].sort()).toEqual([first.id, second.id].sort());
    expect(found.get(first.id)).toEqual(first);
    expect(found.get(second.id)).toEqual(second);
  });
});
