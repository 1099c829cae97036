import { guidanceUpdatedEvent } from '#shared/events/domain/event-payloads.ts';
import type { FleetStore } from '#shared/fleets/store/fleets.ts';
import { fuelSettingsFor } from '#shared/fleets/usecases/fleets.ts';
import { recommendationChanges } from '#shared/fuelings/domain/recommendations.ts';
import { isRoutingFailure } from '#shared/geo/routing-errors.ts';
import { newId } from '#shared/kernel/ids.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import { chargeStationResults, type StationBudgetDeps } from '#shared/plans/usecases/station-budget.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { logger } from '#shared/platform/observability.ts';
import { type OutboxEvent, outboxOf } from '#shared/tracking/domain/outbox.ts';
import { shownStopsAfter } from '#shared/tracking/domain/shown-stops.ts';
import type { VehicleTracking } from '#shared/tracking/domain/vehicle-tracking.ts';
import type { VehiclePositionStore } from '#shared/tracking/store/vehicle-positions.ts';
import type { VehicleTrackingStore } from '#shared/tracking/store/vehicle-tracking.ts';
import { carryOut, type OutboxDeps } from '#shared/tracking/usecases/tracking-outbox.ts';
import { unconsumedBreadcrumbs } from '#shared/tracking/usecases/vehicle-fuel-level.ts';
import { routingFailureReason } from '#shared/truck-routes/usecases/routing-failure-reason.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import type { VehicleReader } from '#shared/vehicles/store/vehicles.ts';
import { assertActive, findVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import type { StartGuidanceBody } from '../api/schemas.ts';
import type { GuidanceUpdate } from '../domain/announcement.ts';
import {
  acknowledgeStop,
  endSession,
  type GuidanceSession,
  MAX_SKIPPED_STOPS,
  type StopAction,
  skipStop,
  startSession,
} from '../domain/session.ts';
import { planTimeOf, snapshotOf } from '../domain/snapshot.ts';
import { type GuidancePlanDeps, replan } from './guidance-plan.ts';

export interface GuidanceReadDeps {
  vehicles: VehicleReader;
  tracking: VehicleTrackingStore;
  now: () => number;
}

export interface GuidanceWriteDeps extends GuidanceReadDeps {
  /** Starting guidance charges its recommended stops to the station budget (as overage past it). */
  counters: StationBudgetDeps['counters'];
  plan: StationBudgetDeps['plan'];
  events: OutboxDeps['events'];
  fuelings: OutboxDeps['fuelings'];
  recommendations: OutboxDeps['recommendations'];
  sessionArchive: OutboxDeps['sessionArchive'];
}

export interface StartGuidanceDeps extends GuidanceWriteDeps, GuidancePlanDeps {
  positions: Pick<VehiclePositionStore, 'recent'>;
  /**
   * The acting fleet's default_min_arrival_fuel_percent, for a start that omits the field, and its
   * assumed_departure_fuel_percent, for a vehicle that never reported a level.
   */
  fleets: Pick<FleetStore, 'get'>;
}

/** Read-modify-write attempts against the tracking item, which the worker also writes. */
const MAX_ATTEMPTS = 5;

/**
 * POST /v1/vehicles/{id}/guidance: a new session (superseding an active one) with its first plan
 * from the vehicle's latest position and fuel. Announces guidance.updated (`created`), and
 * `cleared` for the session it replaced.
 */
export async function startGuidance(
  deps: StartGuidanceDeps,
  principal: Principal,
  fleetId: string,
  ref: string,
  body: StartGuidanceBody,
) {
  const vehicle = await findVehicle(deps, fleetId, ref);
  assertActive(vehicle);
  assertFuelData(vehicle);
  const { minArrivalFuelPercent, assumedDepartureFuelPercent } = await fuelSettingsFor(
    deps,
    fleetId,
    body.min_arrival_fuel_percent,
  );
  const { session } = await commit(deps, fleetId, vehicle.id, async (tracking, nowMs) => {
    const started = startSession({
      id: newId('guidance', nowMs),
      vehicleId: vehicle.id,
      destination: {
        latitude: body.destination.latitude,
        longitude: body.destination.longitude,
        name: body.destination.name ?? null,
      },
      minArrivalFuelPercent,
      assumedDepartureFuelPercent,
      nowMs,
      billingAccountId: principal.accountId,
    });
    const planned = await planNow(deps, fleetId, vehicle, tracking, started, nowMs);
    const previous = activeSession(tracking);
    const superseded = previous ? endSession(previous, 'superseded', nowMs) : null;
    return {
      session: planned.session,
      // A session that arrived the moment it started is over already: kept like any other.
      ended: [
        ...(superseded ? [superseded] : []),
        ...(planned.session.status === 'active' ? [] : [planned.session]),
      ],
      events: [
        ...(superseded ? [guidanceUpdatedEvent(fleetId, superseded, 'cleared')] : []),
        ...planned.events,
      ],
    };
  });
  // Live guidance is never refused at the station budget: past it, its stops are overage.
  await chargeStationResults(deps, principal, session.stops.length, 'overage');
  return session;
}

/** GET /v1/vehicles/{id}/guidance: the active session, or 404 no_active_guidance. */
export async function getGuidance(deps: GuidanceReadDeps, fleetId: string, ref: string) {
  const vehicle = await findVehicle(deps, fleetId, ref);
  // Reading the recommendation again returns no new station results: the stops were charged when
  // the session started (polling a truck's guidance every minute must not drain the budget).
  return requireActive(await deps.tracking.get(fleetId, vehicle.id), vehicle.id);
}

/** DELETE: ends the session with reason caller_cancelled and announces the cleared stop set. */
export async function cancelGuidance(deps: GuidanceWriteDeps, fleetId: string, ref: string): Promise<void> {
  const vehicle = await findVehicle(deps, fleetId, ref);
  await commit(deps, fleetId, vehicle.id, async (tracking, nowMs) => {
    const ended = endSession(requireActive(tracking, vehicle.id), 'caller_cancelled', nowMs);
    return { session: ended, ended: [ended], events: [guidanceUpdatedEvent(fleetId, ended, 'cleared')] };
  });
}

/**
 * A deactivated vehicle reports nothing more (ingest refuses it), so its session would only go
 * stale: it ends (status cancelled, reason vehicle_deactivated) and the cleared stop set is
 * announced. Nothing happens without an active session.
 */
export async function endGuidanceOfDeactivatedVehicle(
  deps: GuidanceWriteDeps,
  fleetId: string,
  vehicleId: string,
): Promise<void> {
  await commit(deps, fleetId, vehicleId, async (tracking, nowMs) => {
    const session = activeSession(tracking);
    if (!session) return { session: tracking.session, ended: [], events: [] };
    const ended = endSession(session, 'vehicle_deactivated', nowMs);
    return { session: ended, ended: [ended], events: [guidanceUpdatedEvent(fleetId, ended, 'cleared')] };
  });
}

/** The driver or agent accepted the stop. Acknowledging twice is one acknowledgement. */
export async function acknowledgeGuidanceStop(
  deps: GuidanceWriteDeps,
  fleetId: string,
  ref: string,
  stopId: string,
): Promise<void> {
  const vehicle = await findVehicle(deps, fleetId, ref);
  assertActive(vehicle);
  await commit(deps, fleetId, vehicle.id, async (tracking, nowMs) => ({
    session: stopActionResult(acknowledgeStop(requireActive(tracking, vehicle.id), stopId, nowMs), stopId),
    ended: [],
    events: [],
  }));
}

/**
 * The station leaves this session and the plan is made again at once without it (the "next cycle"
 * of the spec, run now rather than at the next breadcrumb): a GET right after shows the new stop,
 * and guidance.updated announces it. Skipping a skipped stop again changes nothing.
 */
export async function skipGuidanceStop(
  deps: StartGuidanceDeps,
  fleetId: string,
  ref: string,
  stopId: string,
  reason: string | null,
): Promise<void> {
  const vehicle = await findVehicle(deps, fleetId, ref);
  assertActive(vehicle);
  await commit(deps, fleetId, vehicle.id, async (tracking, nowMs) => {
    const skipped = stopActionResult(
      skipStop(requireActive(tracking, vehicle.id), stopId, reason, nowMs),
      stopId,
    );
    if (!skipped.forceReplan) return { session: skipped, ended: [], events: [] };
    const planned = await planNow(deps, fleetId, vehicle, tracking, skipped, nowMs).catch(
      (error: unknown) => {
        // The skip stands even when routing cannot answer now; forceReplan makes the next cycle plan.
        if (isRoutingFailure(error))
          return { session: { ...skipped, planReason: routingFailureReason(error) }, events: [] };
        throw error;
      },
    );
    return {
      session: planned.session,
      ended: planned.session.status === 'active' ? [] : [planned.session],
      events: planned.events,
    };
  });
}

/**
 * A started trip opens its vehicle's session (`opened`, built by the trip), superseding any other.
 * Opening the same session again changes nothing, so a trip's follow-up can be carried out twice.
 */
export async function openTripGuidance(
  deps: GuidanceWriteDeps,
  fleetId: string,
  vehicleId: string,
  opened: GuidanceUpdate,
): Promise<void> {
  await commit(deps, fleetId, vehicleId, async (tracking, nowMs) => {
    if (tracking.session?.id === opened.session.id)
      return { session: tracking.session, ended: [], events: [] };
    const previous = activeSession(tracking);
    const superseded = previous ? endSession(previous, 'superseded', nowMs) : null;
    return {
      session: opened.session,
      ended: superseded ? [superseded] : [],
      events: [
        ...(superseded ? [guidanceUpdatedEvent(fleetId, superseded, 'cleared')] : []),
        ...opened.events,
      ],
    };
  });
}

/**
 * A completed or cancelled trip ends the session it opened (reason trip_completed/trip_cancelled)
 * and announces the cleared stop set. A session of something else (a later guidance start) is left alone.
 */
export async function endTripGuidance(
  deps: GuidanceWriteDeps,
  fleetId: string,
  vehicleId: string,
  tripId: string,
  reason: 'trip_completed' | 'trip_cancelled',
): Promise<void> {
  await commit(deps, fleetId, vehicleId, async (tracking, nowMs) => {
    const session = activeSession(tracking);
    if (!session || session.tripId !== tripId) return { session: tracking.session, ended: [], events: [] };
    const ended = endSession(session, reason, nowMs);
    return { session: ended, ended: [ended], events: [guidanceUpdatedEvent(fleetId, ended, 'cleared')] };
  });
}

/** The session planned from the vehicle as stored now: its detection state, else its latest position. */
async function planNow(
  deps: StartGuidanceDeps,
  fleetId: string,
  vehicle: Vehicle,
  tracking: VehicleTracking,
  session: GuidanceSession,
  nowMs: number,
) {
  const positions = await deps.positions.recent(fleetId, vehicle.id);
  const { tracker } = tracking;
  const unconsumed = unconsumedBreadcrumbs(positions, tracker);
  const snapshot = snapshotOf(vehicle, tracker, positions?.latest ?? null, session, unconsumed);
  return replan(deps, fleetId, session, snapshot, planTimeOf(snapshot, nowMs));
}

function assertFuelData(vehicle: Vehicle): void {
  if (vehicle.tankSizeGallons === null || vehicle.estimatedMpg === null) {
    throw new ApiError(
      'insufficient_fuel_data',
      `Vehicle ${vehicle.id} has no tank_size_gallons or estimated_mpg.`,
      { hint: `set tank_size_gallons and estimated_mpg via PATCH /v1/vehicles/${vehicle.id}` },
    );
  }
}

const activeSession = (tracking: VehicleTracking) =>
  tracking.session?.status === 'active' ? tracking.session : null;

function requireActive(tracking: VehicleTracking, vehicleId: string): GuidanceSession {
  const session = activeSession(tracking);
  if (!session) {
    throw new ApiError('no_active_guidance', `Vehicle ${vehicleId} has no active guidance session.`, {
      hint: `start one with POST /v1/vehicles/${vehicleId}/guidance`,
    });
  }
  return session;
}

function stopActionResult(action: StopAction, stopId: string): GuidanceSession {
  if (action.ok) return action.session;
  if (action.problem === 'too_many_skips') {
    throw new ApiError('resource_conflict', `This session already skipped ${MAX_SKIPPED_STOPS} stops.`, {
      hint: 'start a new session (POST the guidance again) to plan afresh',
    });
  }
  if (action.problem === 'stop_skipped') {
    throw new ApiError('resource_conflict', `Stop ${stopId} was skipped; it cannot be acknowledged.`, {
      hint: 'acknowledge one of the current stops (GET the guidance)',
    });
  }
  throw new ApiError('resource_not_found', `Stop ${stopId} is not a current stop of this guidance session.`, {
    hint: 'GET the guidance for the current stops; a stop leaves the list when the plan changes',
  });
}

/** A session change: the session to store, sessions that ended (to archive), what to announce. */
type Change<S extends GuidanceSession | null = GuidanceSession> = {
  session: S;
  ended: GuidanceSession[];
  events: OutboxEvent[];
};

/**
 * Applies a change to the vehicle's tracking item under its version, redoing it from fresh state
 * when another writer (the worker, the sweep) got there first. The change's events and ended
 * session go into the item's outbox in the same write and are carried out after it: an event never
 * announces a session that lost the race, and a crash after the commit leaves them to the next
 * writer instead of losing them.
 */
async function commit<S extends GuidanceSession | null>(
  deps: GuidanceWriteDeps,
  fleetId: string,
  vehicleId: string,
  change: (tracking: VehicleTracking, nowMs: number) => Promise<Change<S>>,
): Promise<Change<S>> {
  for (let attempt = 1; ; attempt++) {
    const tracking = await deps.tracking.get(fleetId, vehicleId);
    await carryOut(deps, tracking);
    const nowMs = deps.now();
    const result = await change(tracking, nowMs);
    // Nothing changed (a second acknowledgement, a repeated skip, no session to end): no write.
    if (result.session === tracking.session && result.events.length === 0 && result.ended.length === 0) {
      return result;
    }
    const stored = await deps.tracking.save({
      ...tracking,
      session: result.session,
      shownStops: shownStopsAfter(tracking.shownStops ?? [], tracking.session, result.session, nowMs),
      outbox: outboxOf(
        result.events,
        [],
        result.ended,
        recommendationChanges(tracking.session, result.session, nowMs),
      ),
    });
    if (stored) {
      // Committed: the caller gets its answer even if the follow-up fails now (a retried POST
      // would start a second session, a retried DELETE find none); the outbox keeps the work for
      // the next writer, or the sweep.
      await carryOut(deps, stored).catch((error: unknown) =>
        logger.warn('Guidance follow-up left in the outbox', { vehicleId, error }),
      );
      return result;
    }
    if (attempt >= MAX_ATTEMPTS) {
      throw new ApiError(
        'resource_conflict',
        `Guidance of vehicle ${vehicleId} changed concurrently; retry.`,
      );
    }
  }
}
