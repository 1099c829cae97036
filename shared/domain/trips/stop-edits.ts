import { roundCoordinate } from '../rounding.ts';
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
      latitude?: number | undefined;
      longitude?: number | undefined;
      name?: string | null | undefined;
      stationId?: string | undefined;
      gallonsToBuy?: number | undefined;
    };

export type StopEdit =
  | { ok: true; dispatch: TripStop[] }
  | { ok: false; code: 'fuel_stop_immutable' | 'validation_failed'; field: string; message: string };

/**
 * The dispatcher stops a PATCH `stops` list asks for (the full list of them, in order). Fuel stops
 * are the system's: one sent back exactly as the trip has it is ignored (a client may PATCH back
 * what it read); a changed one, an unknown one, or a dispatcher stop claiming a fuel stop's id is
 * `fuel_stop_immutable`. A dispatcher stop with an id keeps it (and its visit times); without one it
 * is new. Coordinates compare as the API shows them (5 decimals).
 */
export function editStops(
  trip: Pick<Trip, 'stops'>,
  sent: readonly SentStop[],
  newStopId: () => string,
): StopEdit {
  const byId = new Map(trip.stops.map((stop) => [stop.id, stop]));
  const dispatch: TripStop[] = [];
  for (const [index, stop] of sent.entries()) {
    const field = `stops.${index}`;
    const existing = stop.id === undefined ? undefined : byId.get(stop.id);
    if (stop.type === 'fuel') {
      if (existing?.type !== 'fuel' || !sameFuelStop(existing, stop)) {
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

/** Every field the client sent back matches the stop as the API shows it. */
function sameFuelStop(existing: TripStop, sent: Extract<SentStop, { type: 'fuel' }>): boolean {
  const same = <T>(given: T | undefined, actual: T) => given === undefined || given === actual;
  return (
    same(sent.latitude, roundCoordinate(existing.latitude)) &&
    same(sent.longitude, roundCoordinate(existing.longitude)) &&
    same(sent.name, existing.name) &&
    same(sent.stationId, existing.fuel?.station.id) &&
    same(sent.gallonsToBuy, existing.fuel?.gallonsToBuy)
  );
}
