import { describe, expect, it, vi } from 'vitest';
import type { CreateTripBody } from '#shared/trips/api/schemas.ts';
import { TRIP_TIME_WINDOW, tripTimeProblems } from '#shared/trips/domain/trip-times.ts';
import type { TripDeps } from '#shared/trips/usecases/trips.ts';
import { createTrip, updateTrip } from '#shared/trips/usecases/trips.ts';
import { dispatcherPrincipal } from '#test/support/principals.ts';
import { aTrip, pickup, T0 } from './fixtures.ts';

const DAY = 86_400_000;
const RANGE =
  'must be between 2026-08-25T12:00:00Z and 2027-11-23T12:00:00Z (90 days before to 365 days after now)';

describe('tripTimeProblems', () => {
  it('accepts both ends of the window and everything between', () => {
    const times = [
      { field: 'a', atMs: T0 - TRIP_TIME_WINDOW.pastDays * DAY },
      { field: 'b', atMs: T0 },
      { field: 'c', atMs: T0 + TRIP_TIME_WINDOW.futureDays * DAY },
    ];
    expect(tripTimeProblems(times, T0)).toEqual([]);
  });

  it('names each time outside the window with the accepted range', () => {
    const times = [
      { field: 'planned_start_at', atMs: T0 - TRIP_TIME_WINDOW.pastDays * DAY - 1 },
      { field: 'planned_end_at', atMs: T0 + TRIP_TIME_WINDOW.futureDays * DAY + 1 },
      { field: 'stops.0.planned_arrival_at', atMs: T0 + DAY },
    ];
    expect(tripTimeProblems(times, T0)).toEqual([
      { field: 'planned_start_at', message: RANGE },
      { field: 'planned_end_at', message: RANGE },
    ]);
  });
});

describe('a trip’s planned times are bounded around the request', () => {
  const trip = aTrip('planned', { stops: [pickup] });
  const principal = dispatcherPrincipal(trip.fleetId, 'tiny');

  function fakeDeps() {
    const get = vi.fn(async () => null);
    const save = vi.fn(async () => 'stored' as const);
    const deps = {
      trips: { create: vi.fn(), save, get: vi.fn(async () => trip) },
      vehicles: { get, idForExternalRef: vi.fn() },
      now: () => T0,
    } as unknown as TripDeps;
    return { deps, vehicleGet: get, save };
  }

  const body = (fields: Partial<CreateTripBody>): CreateTripBody => ({
    vehicle_id: trip.vehicleId,
    origin: { latitude: 32.7767, longitude: -96.797 },
    destination: { latitude: 39.7392, longitude: -104.9903 },
    planned_start_at: '2026-11-24T08:00:00Z',
    auto_optimize: false,
    ...fields,
  });

  it.each(['0000-01-01T00:00:00Z', '1970-01-01T00:00:00Z', '2999-01-01T00:00:00Z'])(
    'refuses a trip planned to start at %s before looking the vehicle up',
    async (plannedStartAt) => {
      const { deps, vehicleGet } = fakeDeps();
      await expect(
        createTrip(deps, principal, trip.fleetId, body({ planned_start_at: plannedStartAt })),
      ).rejects.toMatchObject({
        code: 'validation_failed',
        detail: `The request body failed validation: planned_start_at ${RANGE}.`,
        extensions: { errors: [{ field: 'planned_start_at', message: RANGE }] },
      });
      expect(vehicleGet).not.toHaveBeenCalled();
    },
  );

  it('names an end and a dispatcher stop’s arrival outside the window too', async () => {
    const { deps } = fakeDeps();
    const sent = body({
      planned_end_at: '2999-01-02T00:00:00Z',
      stops: [{ type: 'pickup', latitude: 33, longitude: -97, planned_arrival_at: '1970-01-01T00:00:00Z' }],
    });
    await expect(createTrip(deps, principal, trip.fleetId, sent)).rejects.toMatchObject({
      extensions: {
        errors: [
          { field: 'planned_end_at', message: RANGE },
          { field: 'stops.0.planned_arrival_at', message: RANGE },
        ],
      },
    });
  });

  it('refuses a PATCH that moves the start out of the window and saves nothing', async () => {
    const { deps, save } = fakeDeps();
    await expect(
      updateTrip(deps, principal, trip.fleetId, trip.id, { planned_start_at: '2999-01-01T00:00:00Z' }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      extensions: { errors: [{ field: 'planned_start_at', message: RANGE }] },
    });
    expect(save).not.toHaveBeenCalled();
  });
});
