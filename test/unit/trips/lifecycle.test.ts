import { describe, expect, it } from 'vitest';
import {
  checkDeletable,
  checkEditable,
  checkOptimizable,
  checkVisitable,
  recordVisit,
  type TripTransition,
  transition,
} from '#shared/trips/domain/lifecycle.ts';
import type { TripStatus } from '#shared/trips/domain/trip.ts';
import { aTrip, fuelStop, pickup, T0 } from './fixtures.ts';

const STATUSES: TripStatus[] = ['planned', 'active', 'completed', 'cancelled'];
const NOW = T0 + 3_600_000;

describe('trip transitions', () => {
  it('start: planned → active, stamped, naming the guidance session it opens', () => {
    const result = transition(aTrip('planned'), 'start', NOW, { guidanceId: 'gd_X' });
    expect(result).toMatchObject({
      ok: true,
      trip: { status: 'active', startedAtMs: NOW, guidanceId: 'gd_X', updatedAtMs: NOW },
    });
  });

  it('complete: active → completed', () => {
    const result = transition(aTrip('active'), 'complete', NOW);
    expect(result).toMatchObject({ ok: true, trip: { status: 'completed', completedAtMs: NOW } });
  });

  it('cancel: active → cancelled, keeping the reason (or null without one)', () => {
    expect(transition(aTrip('active'), 'cancel', NOW, { reason: 'load fell through' })).toMatchObject({
      ok: true,
      trip: { status: 'cancelled', cancelledAtMs: NOW, cancelReason: 'load fell through' },
    });
    expect(transition(aTrip('active'), 'cancel', NOW)).toMatchObject({
      ok: true,
      trip: { cancelReason: null },
    });
  });

  const allowed: Record<TripTransition, TripStatus> = {
    start: 'planned',
    complete: 'active',
    cancel: 'active',
  };
  const refused = (Object.keys(allowed) as TripTransition[]).flatMap((action) =>
    STATUSES.filter((status) => status !== allowed[action]).map((status) => [action, status] as const),
  );

  it.each(refused)('refuses %s from %s with invalid_trip_state', (action, status) => {
    const trip = aTrip(status);
    const result = transition(trip, action, NOW);
    expect(result).toMatchObject({ ok: false, code: 'invalid_trip_state' });
    if (!result.ok) expect(result.detail).toContain(`is ${status}`);
  });
});

describe('edit, delete, optimize and visits by state', () => {
  it.each(STATUSES)('PATCH of a %s trip', (status) => {
    const refusal = checkEditable(aTrip(status));
    if (status === 'planned') expect(refusal).toBeNull();
    else expect(refusal).toMatchObject({ code: 'trip_not_editable' });
  });

  it.each(STATUSES)('DELETE of a %s trip', (status) => {
    const refusal = checkDeletable(aTrip(status));
    if (status === 'planned') expect(refusal).toBeNull();
    else expect(refusal).toMatchObject({ code: 'invalid_trip_state' });
  });

  it('tells the caller to cancel an active trip instead of deleting it', () => {
    expect(checkDeletable(aTrip('active'))?.hint).toContain('/cancel');
  });

  it.each(STATUSES)('optimize of a %s trip', (status) => {
    const refusal = checkOptimizable(aTrip(status));
    if (status === 'planned' || status === 'active') expect(refusal).toBeNull();
    else expect(refusal).toMatchObject({ code: 'invalid_trip_state' });
  });

  it.each(STATUSES)('arrive/depart on a %s trip', (status) => {
    const refusal = checkVisitable(aTrip(status));
    if (status === 'active') expect(refusal).toBeNull();
    else expect(refusal).toMatchObject({ code: 'invalid_trip_state' });
  });
});

describe('recordVisit', () => {
  const trip = aTrip('active');

  it('sets arrived_at once: a second arrival keeps the first time', () => {
    const arrived = recordVisit(trip, pickup.id, 'arrive', NOW, NOW);
    expect(arrived?.stops[0]).toMatchObject({ arrivedAtMs: NOW, departedAtMs: null });
    expect(arrived && recordVisit(arrived, pickup.id, 'arrive', NOW + 5, NOW + 5)).toBeNull();
  });

  it('a departure without an arrival implies one at the same time', () => {
    const departed = recordVisit(trip, fuelStop.id, 'depart', NOW, NOW);
    expect(departed?.stops[1]).toMatchObject({ arrivedAtMs: NOW, departedAtMs: NOW });
  });

  it('an unknown stop changes nothing', () => {
    expect(recordVisit(trip, 'tsp_unknown', 'arrive', NOW, NOW)).toBeNull();
  });
});
