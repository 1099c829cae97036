import { describe, expect, it } from 'vitest';
import { inRouteOrder, type TripStop } from '#shared/trips/domain/trip.ts';
import { fuelStop, pickup } from './fixtures.ts';

const at = (id: string, miles: number): TripStop => ({ ...pickup, id, latitude: miles }) satisfies TripStop;
const fuelAt = (id: string, miles: number): TripStop => ({
  ...fuelStop,
  id,
  fuel: { ...(fuelStop.fuel as NonNullable<TripStop['fuel']>), milesAlongRoute: miles },
});
// The test places a dispatcher stop by its latitude, standing in for its projection on the route.
const milesOf = (stop: TripStop) => stop.latitude;

describe('stops in route order', () => {
  it('puts each fuel stop before the first dispatcher stop the route reaches after it', () => {
    const ordered = inRouteOrder(
      [at('pickup', 100), at('delivery', 500)],
      [fuelAt('fuel-late', 600), fuelAt('fuel-mid', 300), fuelAt('fuel-early', 50)],
      milesOf,
    );
    expect(ordered.map((s) => s.id)).toEqual(['fuel-early', 'pickup', 'fuel-mid', 'delivery', 'fuel-late']);
  });

  it('keeps the dispatcher’s order even where the route would reach a later stop first', () => {
    const ordered = inRouteOrder([at('delivery', 400), at('pickup', 100)], [fuelAt('fuel', 200)], milesOf);
    expect(ordered.map((s) => s.id)).toEqual(['fuel', 'delivery', 'pickup']);
  });

  it('with no dispatcher stops, lists the fuel stops by miles', () => {
    expect(inRouteOrder([], [fuelAt('b', 9), fuelAt('a', 3)], milesOf).map((s) => s.id)).toEqual(['a', 'b']);
  });
});
