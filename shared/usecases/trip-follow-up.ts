import type { Trip } from '../domain/trips/trip.ts';
import { tripGuidanceSession } from '../domain/trips/trip-guidance.ts';
import { projectOntoRoute } from '../geo/route-projection.ts';
import type { EventRecorder } from '../store/events.ts';
import type { FleetStore } from '../store/fleets.ts';
import type { TripStore } from '../store/trips.ts';
import type { VehiclePositionStore } from '../store/vehicle-positions.ts';
import { minArrivalFuelPercentFor } from './fleets.ts';
import { endTripGuidance, type GuidanceWriteDeps, openTripGuidance } from './guidance.ts';
import { lineOf } from './guidance-plan.ts';

export interface TripFollowUpDeps {
  trips: Pick<TripStore, 'clearOutbox'>;
  events: Pick<EventRecorder, 'record'>;
  /** The vehicle's guidance, which a trip opens and ends. */
  guidance: GuidanceWriteDeps;
  positions: Pick<VehiclePositionStore, 'latest'>;
  fleets: Pick<FleetStore, 'get'>;
  now: () => number;
}

/**
 * Carries out what a committed trip change left in its outbox: the guidance it opens or ends,
 * then its events, each under its dedupe key; then clears it. Every writer of a trip calls this
 * before its own change and after it, so a crash in between leaves the work to the next one, and
 * nothing happens twice (the session's id is fixed by the start, events have dedupe keys).
 */
export async function carryOutTrip(deps: TripFollowUpDeps, trip: Trip): Promise<void> {
  const { outbox } = trip;
  if (!outbox) return;
  if (outbox.guidance === 'start' && trip.guidanceId) {
    await openGuidanceFor(deps, trip, trip.guidanceId);
  }
  if (outbox.guidance === 'end') {
    const reason = trip.status === 'completed' ? 'trip_completed' : 'trip_cancelled';
    await endTripGuidance(deps.guidance, trip.fleetId, trip.vehicleId, trip.id, reason);
  }
  for (const event of outbox.events) {
    await deps.events.record(trip.fleetId, event.type, event.data, { dedupeKey: event.dedupeKey });
  }
  await deps.trips.clearOutbox(trip);
}

/** The session toward the trip's destination with its fuel stops, counted from where the truck is. */
async function openGuidanceFor(deps: TripFollowUpDeps, trip: Trip, guidanceId: string): Promise<void> {
  const latest = await deps.positions.latest(trip.fleetId, trip.vehicleId);
  const progressMiles =
    latest && trip.route ? projectOntoRoute(lineOf(trip.route), latest).milesAlongRoute : 0;
  const minArrivalFuelPercent =
    trip.fuelPlan?.minArrivalFuelPercent ??
    (await minArrivalFuelPercentFor(deps, trip.fleetId, trip.minArrivalFuelPercent ?? undefined));
  const opened = tripGuidanceSession(trip.fleetId, trip, {
    guidanceId,
    minArrivalFuelPercent,
    progressMiles,
    nowMs: deps.now(),
  });
  await openTripGuidance(deps.guidance, trip.fleetId, trip.vehicleId, opened);
}
