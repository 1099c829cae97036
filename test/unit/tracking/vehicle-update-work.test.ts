import { describe, expect, it, vi } from 'vitest';
import { deliveredVehicleUpdate, vehicleUpdateWork } from '#shared/tracking/usecases/vehicle-update-work.ts';

const positions = {
  latest: { latitude: 32.7, longitude: -96.8, recordedAtMs: 1, receivedAtMs: 2 },
  recent: [],
  flushedThroughMs: null,
  version: 4,
};
const vehicle = { id: 'veh_a', fleetId: 'flt_1', tankSizeGallons: 150, estimatedMpg: 6.5 };
const body = JSON.stringify({ fleetId: 'flt_1', vehicleId: 'veh_a', positionVersion: 4, positions, vehicle });

describe('the guidance worker’s work on a vehicle-updates message', () => {
  it('keeps the snapshots on a first delivery and leaves them out when the message is delivered again', () => {
    expect(deliveredVehicleUpdate(body, 1)).toEqual({
      fleetId: 'flt_1',
      vehicleId: 'veh_a',
      positionVersion: 4,
      positions,
      vehicle,
    });
    expect(deliveredVehicleUpdate(body, 2)).toEqual({
      fleetId: 'flt_1',
      vehicleId: 'veh_a',
      positionVersion: 4,
    });
  });

  it('gives nothing for a body that names no vehicle, so the message is dropped', () => {
    expect(deliveredVehicleUpdate('not json', 1)).toBeNull();
    expect(deliveredVehicleUpdate(JSON.stringify({ vehicleId: 'veh_a' }), 3)).toBeNull();
  });

  it('serialises by fleet and vehicle, and runs the cycle on the message', async () => {
    const cycle = vi.fn(async () => ({ events: [{ type: 'vehicle.fuel_low' }] }));
    const work = vehicleUpdateWork(cycle);
    expect(work.keyOf({ fleetId: 'flt_1', vehicleId: 'veh_a' })).toBe('flt_1|veh_a');
    expect(work.keyOf({ fleetId: 'flt_2', vehicleId: 'veh_a' })).not.toBe(
      work.keyOf({ fleetId: 'flt_1', vehicleId: 'veh_a' }),
    );
    await work.process({ fleetId: 'flt_1', vehicleId: 'veh_a' });
    expect(cycle).toHaveBeenCalledWith({ fleetId: 'flt_1', vehicleId: 'veh_a' });
  });
});
