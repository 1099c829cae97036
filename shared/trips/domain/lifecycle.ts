import type { Trip, TripStatus } from './trip.ts';

/**
 * The trip state machine (docs/trips.md#lifecycle). Each operation either gives the next trip or a
 * refusal naming the spec's code; the use case turns a refusal into the problem response.
 *
 * planned ─start→ active ─complete→ completed
 *                   └──cancel→ cancelled
 * PATCH: planned only (trip_not_editable); DELETE: planned only (invalid_trip_state);
 * optimize, arrive and depart: never on an ended trip (invalid_trip_state).
 */

export type TripRefusal =
  | { ok: false; code: 'invalid_trip_state'; detail: string; hint: string }
  | { ok: false; code: 'trip_not_editable'; detail: string; hint: string };

export type TripChange = { ok: true; trip: Trip } | TripRefusal;

export type TripTransition = 'start' | 'complete' | 'cancel';

/** The one state each transition leaves from. */
const FROM: Record<TripTransition, TripStatus> = { start: 'planned', complete: 'active', cancel: 'active' };

const invalid = (trip: Pick<Trip, 'id' | 'status'>, what: string, hint: string): TripRefusal => ({
  ok: false,
  code: 'invalid_trip_state',
  detail: `Trip ${trip.id} is ${trip.status}; it cannot be ${what}.`,
  hint,
});

const hintFor = (status: TripStatus) =>
  status === 'planned'
    ? 'start the trip first: POST /v1/trips/{id}/start'
    : status === 'active'
      ? 'complete or cancel the active trip: POST /v1/trips/{id}/complete or /cancel'
      : 'the trip has ended; create a new trip';

/**
 * start (planned → active), complete (active → completed), cancel (active → cancelled, with an
 * optional reason). Anything else is `invalid_trip_state` and leaves the trip as it was.
 */
export function transition(
  trip: Trip,
  action: TripTransition,
  nowMs: number,
  options: { guidanceId?: string; reason?: string | null } = {},
): TripChange {
  if (trip.status !== FROM[action]) {
    const verb = { start: 'started', complete: 'completed', cancel: 'cancelled' }[action];
    return invalid(trip, verb, hintFor(trip.status));
  }
  const base = { ...trip, updatedAtMs: nowMs };
  switch (action) {
    case 'start':
      return {
        ok: true,
        trip: { ...base, status: 'active', startedAtMs: nowMs, guidanceId: options.guidanceId ?? null },
      };
    case 'complete':
      return { ok: true, trip: { ...base, status: 'completed', completedAtMs: nowMs } };
    case 'cancel':
      return {
        ok: true,
        trip: { ...base, status: 'cancelled', cancelledAtMs: nowMs, cancelReason: options.reason ?? null },
      };
  }
}

/** PATCH: a planned trip only. */
export function checkEditable(trip: Pick<Trip, 'id' | 'status'>): TripRefusal | null {
  if (trip.status === 'planned') return null;
  return {
    ok: false,
    code: 'trip_not_editable',
    detail: `Trip ${trip.id} is ${trip.status}; only planned trips can be edited.`,
    hint: 'only `planned` trips can be edited',
  };
}

/** DELETE: a planned trip is removed; an active one must be cancelled instead; an ended one stays. */
export function checkDeletable(trip: Pick<Trip, 'id' | 'status'>): TripRefusal | null {
  if (trip.status === 'planned') return null;
  return invalid(
    trip,
    'deleted',
    trip.status === 'active'
      ? 'cancel the active trip instead: POST /v1/trips/{id}/cancel'
      : 'an ended trip is kept as a record',
  );
}

/** optimize: the fuel stops of a planned or active trip; an ended trip keeps what it had. */
export function checkOptimizable(trip: Pick<Trip, 'id' | 'status'>): TripRefusal | null {
  if (trip.status === 'planned' || trip.status === 'active') return null;
  return invalid(trip, 'optimized', hintFor(trip.status));
}

/** arrive/depart: the dispatcher's word about an active trip. */
export function checkVisitable(trip: Pick<Trip, 'id' | 'status'>): TripRefusal | null {
  if (trip.status === 'active') return null;
  return invalid(trip, 'arrived at or departed from', hintFor(trip.status));
}

/**
 * A stop visit: arrival keeps the first time it was heard (GPS and the dispatcher may both say
 * so); a departure implies an arrival (dated the same when none was recorded). Null when nothing
 * changes (an unknown stop, or a time already recorded).
 */
export function recordVisit(
  trip: Trip,
  stopId: string,
  visit: 'arrive' | 'depart',
  atMs: number,
  nowMs: number,
): Trip | null {
  const stop = trip.stops.find((s) => s.id === stopId);
  if (!stop) return null;
  const arrivedAtMs = stop.arrivedAtMs ?? atMs;
  const departedAtMs = visit === 'depart' ? (stop.departedAtMs ?? atMs) : stop.departedAtMs;
  if (arrivedAtMs === stop.arrivedAtMs && departedAtMs === stop.departedAtMs) return null;
  return {
    ...trip,
    stops: trip.stops.map((s) => (s.id === stopId ? { ...s, arrivedAtMs, departedAtMs } : s)),
    updatedAtMs: nowMs,
  };
}
