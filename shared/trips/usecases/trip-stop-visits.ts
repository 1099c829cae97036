import type { OutboxEvent } from '#shared/tracking/domain/outbox.ts';
import { recordVisit } from '../domain/lifecycle.ts';
import type { TripStore } from '../store/trips.ts';

export interface TripStopVisitDeps {
  trips: Pick<TripStore, 'get' | 'saveState'>;
  now: () => number;
}

const MAX_ATTEMPTS = 5;

/**
 * GPS visits at a trip's stops: the guidance worker's committed vehicle.stop_arrived/departed
 * events that name a trip set that stop's arrived_at/departed_at (the first time heard wins, as
 * for the dispatcher's word). Only an active trip records visits.
 */
export async function recordTripStopVisits(
  deps: TripStopVisitDeps,
  fleetId: string,
  events: readonly OutboxEvent[],
): Promise<void> {
  for (const event of events) {
    if (event.type !== 'vehicle.stop_arrived' && event.type !== 'vehicle.stop_departed') continue;
    const { trip_id: tripId, stop_id: stopId } = event.data;
    if (typeof tripId !== 'string' || typeof stopId !== 'string') continue;
    const arrived = event.type === 'vehicle.stop_arrived';
    const at = Date.parse(String(arrived ? event.data.arrived_at : event.data.departed_at));
    await recordVisitWithRetry(deps, fleetId, tripId, stopId, arrived ? 'arrive' : 'depart', at);
  }
}

async function recordVisitWithRetry(
  deps: TripStopVisitDeps,
  fleetId: string,
  tripId: string,
  stopId: string,
  visit: 'arrive' | 'depart',
  atMs: number,
): Promise<void> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const trip = await deps.trips.get(fleetId, tripId);
    if (trip?.status !== 'active') return;
    const next = recordVisit(trip, stopId, visit, atMs, deps.now());
    if (!next) return;
    // The trip's state only: its outbox is not this writer's (copying the one read could bring back
    // follow-up work carried out since, e.g. reopen the trip's guidance).
    if ((await deps.trips.saveState({ ...next, version: trip.version + 1 }, trip.version)) === 'stored') {
      return;
    }
  }
  throw new Error(`trip ${tripId}: stop visit lost ${MAX_ATTEMPTS} races in a row`);
}
