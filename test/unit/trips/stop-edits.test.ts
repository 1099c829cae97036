import { describe, expect, it } from 'vitest';
import { updateTripBody } from '#shared/trips/api/schemas.ts';
import { tripStopResource } from '#shared/trips/api/serializers.ts';
import { editStops as editStopsShown, type SentStop } from '#shared/trips/domain/stop-edits.ts';
import type { Trip } from '#shared/trips/domain/trip.ts';
import { aTrip, fuelStop, pickup } from './fixtures.ts';

const editStops = (trip: Pick<Trip, 'stops'>, sent: SentStop[], newStopId: () => string) =>
  editStopsShown(trip, sent, newStopId, (stop) => tripStopResource(stop, 0));

const trip = aTrip('planned');
let counter = 0;
const newId = () => `tsp_NEW${++counter}`;

/** The fuel stop as a client reads it back from GET (coordinates to 5 decimals), less `sequence`. */
const shown = {
  id: fuelStop.id,
  type: 'fuel',
  system_managed: true,
  name: fuelStop.name,
  latitude: 35.22197,
  longitude: -101.8313,
  planned_arrival_at: null,
  arrived_at: null,
  departed_at: null,
  fuel: {
    station: {
      id: 'stn_01JD7ZK3M4N5P6Q7R8S9T0V1W4',
      name: "Love's Amarillo",
      chain: "Love's",
      latitude: 35.22197,
      longitude: -101.8313,
      address: 'I-40, Amarillo, TX',
    },
    miles_along_route: 360.2,
    detour_miles: 0.4,
    gallons_to_buy: 92.5,
    price_usd_per_gallon: 3.459,
    discount_usd_per_gallon: 0.12,
    net_price_usd_per_gallon: 3.339,
    reason: 'Cheapest on the route',
  },
};
const fuelAsRead = { type: 'fuel' as const, id: fuelStop.id, members: shown };
const withFuel = (change: Record<string, unknown>) => ({
  ...fuelAsRead,
  members: { ...shown, fuel: { ...shown.fuel, ...change } },
});

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

  it('ignores a fuel stop sent back whole, its price basis and counterfactual included; a changed price basis is refused', () => {
    // Prepare: what GET shows of a stop priced on the IFTA basis, sent back as read.
    const priced = {
      ...fuelStop,
      fuel: fuelStop.fuel && {
        ...fuelStop.fuel,
        state: 'TX',
        stateTax: 0.2,
        effectivePrice: 3.139,
        counterfactual: { pumpPrice: 3.31, netPrice: 3.2, stationCount: 6 },
      },
    };
    const { sequence: _, ...members } = tripStopResource(priced, 0);
    const body = updateTripBody.safeParse({ stops: [members] });
    const changed = { ...members, fuel: { ...members.fuel, effective_price_usd_per_gallon: 3.01 } };

    // Act
    const same = editStops({ stops: [priced] }, [{ type: 'fuel', id: priced.id, members }], newId);
    const edited = editStops({ stops: [priced] }, [{ type: 'fuel', id: priced.id, members: changed }], newId);

    // Assess
    expect(body.success).toBe(true);
    expect(same.ok).toBe(true);
    expect(edited).toMatchObject({ ok: false, code: 'fuel_stop_immutable' });
  });

  it('ignores a fuel stop sent back with only some of its members, all as shown', () => {
    const partial = { type: 'fuel' as const, id: fuelStop.id, members: { id: fuelStop.id, type: 'fuel' } };
    expect(editStops(trip, [partial], newId)).toMatchObject({ ok: true, dispatch: [] });
  });

  it.each([
    ['gallons', withFuel({ gallons_to_buy: 50 })],
    ['price', withFuel({ price_usd_per_gallon: 2.999 })],
    ['net price', withFuel({ net_price_usd_per_gallon: 2.5 })],
    ['discount', withFuel({ discount_usd_per_gallon: 0 })],
    ['reason', withFuel({ reason: 'Because' })],
    ['miles along the route', withFuel({ miles_along_route: 10 })],
    ['station id', withFuel({ station: { ...shown.fuel.station, id: 'stn_01JD7ZK3M4N5P6Q7R8S9T0V1WZ' } })],
    ['station address', withFuel({ station: { address: 'elsewhere' } })],
    ['position', { ...fuelAsRead, members: { ...shown, latitude: 35.3 } }],
    ['unrounded position', { ...fuelAsRead, members: { ...shown, latitude: fuelStop.latitude } }],
    ['name', { ...fuelAsRead, members: { ...shown, name: 'Pilot' } }],
    ['planned arrival', { ...fuelAsRead, members: { ...shown, planned_arrival_at: '2026-11-23T15:00:00Z' } }],
    ['plan (null)', { ...fuelAsRead, members: { ...shown, fuel: null } }],
  ])('refuses a fuel stop whose %s changed with fuel_stop_immutable', (_what, sent) => {
    const result = editStops(trip, [sent as SentStop], newId);
    expect(result).toMatchObject({ ok: false, code: 'fuel_stop_immutable', field: 'stops.0' });
  });

  it('refuses a stop id given twice as a validation failure naming the second', () => {
    const twice = { ...delivery, id: pickup.id };
    expect(editStops(trip, [twice, { ...twice, name: 'Dock 9' }], newId)).toMatchObject({
      ok: false,
      code: 'validation_failed',
      field: 'stops.1.id',
    });
    expect(editStops(trip, [fuelAsRead, fuelAsRead], newId)).toMatchObject({
      ok: false,
      code: 'validation_failed',
      field: 'stops.1.id',
    });
  });

  it('refuses a new fuel stop (no id, or an id the trip does not have)', () => {
    expect(
      editStops(trip, [{ type: 'fuel', members: { latitude: 35, longitude: -101 } }], newId),
    ).toMatchObject({
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
