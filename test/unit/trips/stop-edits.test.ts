import { describe, expect, it } from 'vitest';
import { editStops } from '../../../shared/domain/trips/stop-edits.ts';
import { aTrip, fuelStop, pickup } from './fixtures.ts';

const trip = aTrip('planned');
let counter = 0;
const newId = () => `tsp_NEW${++counter}`;

/** The fuel stop as a client reads it back from GET (coordinates to 5 decimals). */
const fuelAsRead = {
  type: 'fuel' as const,
  id: fuelStop.id,
  latitude: 35.22197,
  longitude: -101.8313,
  name: fuelStop.name,
  stationId: fuelStop.fuel?.station.id,
  gallonsToBuy: fuelStop.fuel?.gallonsToBuy,
};

const delivery = {
  type: 'delivery' as const,
  latitude: 36,
  longitude: -103,
  name: 'Warehouse',
  plannedArrivalAtMs: null,
};

describe('PATCH stops (fuel stops are system-managed)', () => {
  it('ignores a fuel stop sent back unchanged and keeps the dispatcher stops in the order sent', () => {
    const result = editStops(
      trip,
      [delivery, fuelAsRead, { ...pickup, type: 'pickup', name: 'Dock 5' }],
      newId,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.dispatch.map((s) => [s.type, s.name])).toEqual([
      ['delivery', 'Warehouse'],
      ['pickup', 'Dock 5'],
    ]);
    // A stop with its id keeps it; a new one gets a new id.
    expect(result.dispatch[1]?.id).toBe(pickup.id);
    expect(result.dispatch[0]?.id).toMatch(/^tsp_NEW/);
  });

  it.each([
    ['gallons', { gallonsToBuy: 50 }],
    ['position', { latitude: 35.3 }],
    ['station', { stationId: 'stn_01JD7ZK3M4N5P6Q7R8S9T0V1WZ' }],
    ['name', { name: 'Pilot' }],
  ])('refuses a fuel stop whose %s changed with fuel_stop_immutable', (_what, change) => {
    const result = editStops(trip, [{ ...fuelAsRead, ...change }], newId);
    expect(result).toMatchObject({ ok: false, code: 'fuel_stop_immutable', field: 'stops.0' });
  });

  it('refuses a new fuel stop (no id, or an id the trip does not have)', () => {
    expect(editStops(trip, [{ type: 'fuel', latitude: 35, longitude: -101 }], newId)).toMatchObject({
      ok: false,
      code: 'fuel_stop_immutable',
    });
    expect(editStops(trip, [{ ...fuelAsRead, id: pickup.id }], newId)).toMatchObject({
      ok: false,
      code: 'fuel_stop_immutable',
    });
  });

  it('refuses turning a fuel stop into a dispatcher stop', () => {
    const result = editStops(trip, [{ ...delivery, id: fuelStop.id }], newId);
    expect(result).toMatchObject({ ok: false, code: 'fuel_stop_immutable', field: 'stops.0' });
  });

  it('refuses a dispatcher stop id the trip does not have as a validation failure', () => {
    const result = editStops(trip, [{ ...delivery, id: 'tsp_01JD7ZK3M4N5P6Q7R8S9T0V1ZZ' }], newId);
    expect(result).toMatchObject({ ok: false, code: 'validation_failed', field: 'stops.0.id' });
  });
});
