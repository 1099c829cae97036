import type { EventRecorder } from '#shared/events/usecases/event-recording.ts';
import { effectiveMinArrivalFuelPercent } from '#shared/fleets/domain/fleet.ts';
import type { FleetStore } from '#shared/fleets/store/fleets.ts';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { projectOntoRoute } from '#shared/geo/route-projection.ts';
import {
  endTripGuidance,
  type GuidanceWriteDeps,
  openTripGuidance,
} from '#shared/guidance/usecases/guidance.ts';
import { lineOf } from '#shared/guidance/usecases/guidance-plan.ts';
import type { VehiclePositionStore } from '#shared/tracking/store/vehicle-positions.ts';
import type { Trip } from '../domain/trip.ts';
import { tripGuidanceSession } from '../domain/trip-guidance.ts';
import type { TripStore } from '../store/trips.ts';

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

/** Younger than this, a pending outbox is still its own request's to carry out. */
export const PENDING_OUTBOX_GRACE_MS = 60_000;
/** Trips one sweep run looks at; the rest wait a minute. */
const SWEEP_BATCH = 100;

export interface TripOutboxSweepDeps extends Omit<TripFollowUpDeps, 'trips'> {
  trips: Pick<TripStore, 'get' | 'clearOutbox' | 'pendingOutboxes' | 'forgetPendingOutbox'>;
  /** Told about a trip the run could not carry out (logged; the next run tries again). */
  onError?: (trip: { fleetId: string; tripId: string }, error: unknown) => void;
}

/**
 * The every-minute sweep's share of trips: a change that committed but whose follow-up failed (or
 * whose process died) has its outbox carried out here, a minute later at most, when no later writer
 * of the trip did it first. Carrying out twice is harmless (fixed session id, event dedupe keys).
 */
export async function sweepTripOutboxes(
  deps: TripOutboxSweepDeps,
): Promise<{ carriedOut: number; failed: number }> {
  let carriedOut = 0;
  let failed = 0;
  for (const pending of await deps.trips.pendingOutboxes(deps.now() - PENDING_OUTBOX_GRACE_MS, SWEEP_BATCH)) {
    try {
      const trip = await deps.trips.get(pending.fleetId, pending.tripId);
      if (!trip?.outbox) {
        // Carried out and cleared meanwhile, a write that lost its race, or a deleted trip.
        await deps.trips.forgetPendingOutbox({
          fleetId: pending.fleetId,
          id: pending.tripId,
          version: trip?.version ?? Number.MAX_SAFE_INTEGER,
        });
        continue;
      }
      await carryOutTrip(deps, trip);
      carriedOut += 1;
    } catch (error) {
      failed += 1;
      deps.onError?.(pending, error);
    }
  }
  return { carriedOut, failed };
}

/** The session toward the trip's destination with its fuel stops, counted from where the truck is. */
async function openGuidanceFor(deps: TripFollowUpDeps, trip: Trip, guidanceId: string): Promise<void> {
  const latest = await deps.positions.latest(trip.fleetId, trip.vehicleId);
  const progressMiles =
    latest && trip.route ? projectOntoRoute(lineOf(trip.route), latest).milesAlongRoute : 0;
  // One read: the program in force now (the trip's stops were checked against the one then) and
  // the fleet's default arrival level.
  const fleet = await deps.fleets.get(trip.fleetId);
  const minArrivalFuelPercent =
    trip.fuelPlan?.minArrivalFuelPercent ??
    effectiveMinArrivalFuelPercent(trip.minArrivalFuelPercent ?? undefined, fleet);
  const opened = tripGuidanceSession(trip.fleetId, trip, {
    guidanceId,
    minArrivalFuelPercent,
    progressMiles,
    nowMs: deps.now(),
    program: fleet?.fuelProgram ?? NO_FUEL_PROGRAM,
  });
  await openTripGuidance(deps.guidance, trip.fleetId, trip.vehicleId, opened);
}
