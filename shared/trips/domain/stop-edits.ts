import type { DispatchStopType, Trip, TripStop } from './trip.ts';

/** A stop as a PATCH sends it: the dispatcher's own, or a fuel stop sent back from a GET. */
export type SentStop =
  | {
      type: DispatchStopType;
      id?: string | undefined;
      latitude: number;
      longitude: number;
      name: string | null;
      plannedArrivalAtMs: number | null;
    }
  | {
      type: 'fuel';
      id?: string | undefined;
      /** The members the client sent back, as JSON (`sequence` left out: a position, not the stop's). */
      members: Readonly<Record<string, unknown>>;
    };

/** A stop as the API shows it (GET's members, rounded as GET rounds them). */
export type ShowStop = (stop: TripStop) => Readonly<Record<string, unknown>>;

export type StopEdit =
  | { ok: true; dispatch: TripStop[] }
  | { ok: false; code: 'fuel_stop_immutable' | 'validation_failed'; field: string; message: string };

/**
 * The dispatcher stops a PATCH `stops` list asks for (the full list of them, in order). Fuel stops
 * are the system's: one sent back exactly as the trip has it is ignored (a client may PATCH back
 * what it read); a changed one, an unknown one, or a dispatcher stop claiming a fuel stop's id is
 * `fuel_stop_immutable`. "Exactly": every member sent equals what GET shows (`show`, with its
 * rounding), nested ones included; a member left out is not compared. A dispatcher stop with an id
 * keeps it (and its visit times); without one it is new. One id twice is `validation_failed`.
 */
export function editStops(
  trip: Pick<Trip, 'stops'>,
  sent: readonly SentStop[],
  newStopId: () => string,
  show: ShowStop,
): StopEdit {
  const byId = new Map(trip.stops.map((stop) => [stop.id, stop]));
  const seenAt = new Map<string, number>();
  const dispatch: TripStop[] = [];
  for (const [index, stop] of sent.entries()) {
    const field = `stops.${index}`;
    if (stop.id !== undefined) {
      const first = seenAt.get(stop.id);
      if (first !== undefined) {
        return {
          ok: false,
          code: 'validation_failed',
          field: `${field}.id`,
          message: `repeats stop ${stop.id} (already stops.${first}); each stop appears once`,
        };
      }
      seenAt.set(stop.id, index);
    }
    const existing = stop.id === undefined ? undefined : byId.get(stop.id);
    if (stop.type === 'fuel') {
      if (existing?.type !== 'fuel' || !sameAsShown(stop.members, show(existing))) {
        return {
          ok: false,
          code: 'fuel_stop_immutable',
          field,
          message: existing
            ? `fuel stop ${stop.id} differs from the trip's; fuel stops are system-managed`
            : 'a fuel stop cannot be added by hand; fuel stops are system-managed',
        };
      }
      continue;
    }
    if (stop.id !== undefined && !existing) {
      return {
        ok: false,
        code: 'validation_failed',
        field: `${field}.id`,
        message: `is not a stop of this trip`,
      };
    }
    if (existing?.type === 'fuel') {
      return {
        ok: false,
        code: 'fuel_stop_immutable',
        field,
        message: `stop ${existing.id} is a fuel stop; its type cannot change`,
      };
    }
    dispatch.push({
      id: existing?.id ?? newStopId(),
      type: stop.type,
      name: stop.name,
      latitude: stop.latitude,
      longitude: stop.longitude,
      plannedArrivalAtMs: stop.plannedArrivalAtMs,
      arrivedAtMs: existing?.arrivedAtMs ?? null,
      departedAtMs: existing?.departedAtMs ?? null,
      fuel: null,
    });
  }
  return { ok: true, dispatch };
}

/** Every member sent (recursively) equals the one shown; members left out are not compared. */
export function sameAsShown(sent: unknown, shown: unknown): boolean {
  if (typeof sent !== 'object' || sent === null || typeof shown !== 'object' || shown === null) {
    return sent === shown;
  }
  if (Array.isArray(sent) || Array.isArray(shown)) return false;
  const shownMembers = shown as Record<string, unknown>;
  return Object.entries(sent).every(
    ([key, value]) => Object.hasOwn(shownMembers, key) && sameAsShown(value, shownMembers[key]),
  );
}
