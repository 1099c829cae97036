import { tripEvent } from '#shared/events/domain/event-payloads.ts';
import { newId } from '#shared/kernel/ids.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import { chargeStationResults, type StationBudgetDeps } from '#shared/plans/usecases/station-budget.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { logger } from '#shared/platform/observability.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import type { VehicleReader } from '#shared/vehicles/store/vehicles.ts';
import { assertActive, findVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import type { CreateTripBody, UpdateTripBody } from '../api/schemas.ts';
import { tripStopResource } from '../api/serializers.ts';
import {
  checkDeletable,
  checkEditable,
  checkOptimizable,
  checkVisitable,
  recordVisit,
  type TripRefusal,
  transition,
} from '../domain/lifecycle.ts';
import { editStops, type SentStop } from '../domain/stop-edits.ts';
import {
  dispatchStops,
  fuelStops,
  type Trip,
  type TripPlace,
  type TripStatus,
  type TripStop,
} from '../domain/trip.ts';
import { type PlannedTime, tripTimeProblems } from '../domain/trip-times.ts';
import type { TripReader, TripStore, TripWrite } from '../store/trips.ts';
import { carryOutTrip, type TripFollowUpDeps } from './trip-follow-up.ts';
import { ordered, routeTrip, type TripPlanningDeps, withFuelStops } from './trip-fuel-stops.ts';

/** What a change that plans nothing needs (ending a trip): no router, no catalog. */
export interface TripChangeDeps extends TripFollowUpDeps {
  trips: TripStore;
}

/** Starting a trip plans nothing either (guidance routes on its first breadcrumb); it checks the vehicle. */
export interface TripStartDeps extends TripChangeDeps {
  vehicles: Pick<VehicleReader, 'get'>;
}

export interface TripDeps extends Omit<TripPlanningDeps, 'positions'>, Omit<TripChangeDeps, 'positions'> {
  positions: TripPlanningDeps['positions'] & TripChangeDeps['positions'];
  vehicles: VehicleReader;
  /** The station-query budget the fuel stops of a trip are charged to (docs/limits.md). */
  counters: StationBudgetDeps['counters'];
  plan: StationBudgetDeps['plan'];
}

/** Read-modify-write attempts against a trip another request changes at the same moment. */
const MAX_ATTEMPTS = 5;

const place = (p: { latitude: number; longitude: number; name?: string | undefined }): TripPlace => ({
  latitude: p.latitude,
  longitude: p.longitude,
  name: p.name ?? null,
});
const msOf = (iso: string | null | undefined) => (iso === null || iso === undefined ? null : Date.parse(iso));

/**
 * POST /v1/trips: a planned trip of an active vehicle, routed origin → destination; with
 * auto_optimize its fuel stops are planned now (the vehicle needs tank, mpg and a fuel level).
 */
export async function createTrip(
  deps: TripDeps,
  principal: Principal,
  fleetId: string,
  body: CreateTripBody,
): Promise<Trip> {
  const nowMs = deps.now();
  assertPlannedTimes(plannedTimes(body), nowMs);
  const vehicle = await findVehicle(deps, fleetId, body.vehicle_id ?? `ext:${body.external_ref}`);
  assertActive(vehicle);
  const stops: TripStop[] = (body.stops ?? []).map((stop) => ({
    id: newId('tripStop', nowMs),
    type: stop.type,
    name: stop.name ?? null,
    latitude: stop.latitude,
    longitude: stop.longitude,
    plannedArrivalAtMs: msOf(stop.planned_arrival_at),
    arrivedAtMs: null,
    departedAtMs: null,
    fuel: null,
  }));
  const draft: Trip = {
    id: newId('trip', nowMs),
    fleetId,
    vehicleId: vehicle.id,
    externalRef: vehicle.externalRef,
    reference: body.reference ?? null,
    status: 'planned',
    autoOptimize: body.auto_optimize,
    origin: place(body.origin),
    destination: place(body.destination),
    plannedStartAtMs: Date.parse(body.planned_start_at),
    plannedEndAtMs: msOf(body.planned_end_at),
    startedAtMs: null,
    completedAtMs: null,
    cancelledAtMs: null,
    cancelReason: null,
    startFuelPercent: body.start_fuel_percent ?? null,
    minArrivalFuelPercent: body.min_arrival_fuel_percent ?? null,
    stops,
    route: null,
    fuelPlan: null,
    guidanceId: null,
    outbox: null,
    createdAtMs: nowMs,
    updatedAtMs: nowMs,
    version: 1,
  };
  const trip = body.auto_optimize
    ? await withFuelStops(deps, draft, vehicle, nowMs)
    : await withRoute(deps, draft, vehicle);
  // Charged before the trip is stored: a refused trip leaves nothing behind.
  await fuelStopCharge(deps, principal, fleetId)(trip);
  await deps.trips.create(trip);
  return trip;
}

/**
 * Charges a trip's fuel stops (each a station returned, docs/limits.md) to the station-query budget,
 * once per call: a trip is a dispatcher's explicit planning call, like POST /v1/routes, so one that
 * would cross the budget is refused (429 station_budget_exceeded) before anything is written. Inside
 * the retry of `change`, a redone attempt is charged only for the stops beyond those already charged
 * by this call, so a write lost to a concurrent writer is not charged twice.
 */
function fuelStopCharge(deps: TripDeps, principal: Principal, fleetId: string) {
  let charged = 0;
  return async (trip: Trip): Promise<void> => {
    const count = fuelStops(trip).length;
    if (count <= charged) return;
    await chargeStationResults(deps, principal, count - charged, 'refuse', fleetId);
    charged = count;
  };
}

async function withRoute(deps: TripDeps, trip: Trip, vehicle: Vehicle | null): Promise<Trip> {
  const next = { ...trip, route: await routeTrip(deps, trip, vehicle) };
  return { ...next, stops: ordered(next) };
}

/** GET /v1/trips/{id}: a trip of the acting fleet; another fleet's id is not found. */
export async function getTrip(
  deps: { trips: Pick<TripReader, 'get'> },
  fleetId: string,
  tripId: string,
): Promise<Trip> {
  const trip = await deps.trips.get(fleetId, tripId);
  if (!trip) throw new ApiError('resource_not_found', `Trip ${tripId} was not found in this fleet.`);
  return trip;
}

/** GET /v1/trips: by planned start, optionally of one status and one vehicle. */
export async function listTrips(
  deps: Pick<TripDeps, 'vehicles'> & { trips: Pick<TripReader, 'list'> },
  fleetId: string,
  filter: {
    status?: TripStatus | undefined;
    vehicleRef?: string | undefined;
    from?: string | undefined;
    to?: string | undefined;
  },
  limit: number,
  cursor: string | undefined,
) {
  // Looked up either way: a vehicle outside the fleet is 404, as on GET /v1/fuelings, never an
  // empty list that reads as "no trips yet".
  const vehicleId = filter.vehicleRef ? (await findVehicle(deps, fleetId, filter.vehicleRef)).id : undefined;
  const fromMs = msOf(filter.from) ?? undefined;
  const toMs = msOf(filter.to) ?? undefined;
  if (fromMs !== undefined && toMs !== undefined && toMs < fromMs) {
    throw new ApiError('validation_failed', 'The period ends before it starts.', {
      extensions: { errors: [{ field: 'to', message: 'must not be before from' }] },
    });
  }
  return deps.trips.list(fleetId, { status: filter.status, vehicleId, fromMs, toMs }, limit, cursor);
}

/**
 * PATCH /v1/trips/{id}: a planned trip's reference, times, ends and dispatcher stops. A change of an
 * end moves the route; with auto_optimize that regenerates the fuel stops, without it the fuel
 * stops (and fuel_plan) are dropped.
 */
export async function updateTrip(
  deps: TripDeps,
  principal: Principal,
  fleetId: string,
  tripId: string,
  body: UpdateTripBody,
): Promise<Trip> {
  const charge = fuelStopCharge(deps, principal, fleetId);
  return change(deps, fleetId, tripId, async (trip, nowMs) => {
    refuse(checkEditable(trip));
    assertPlannedTimes(plannedTimes(body), nowMs);
    let next: Trip = {
      ...trip,
      reference: body.reference === undefined ? trip.reference : body.reference,
      plannedStartAtMs:
        body.planned_start_at === undefined ? trip.plannedStartAtMs : Date.parse(body.planned_start_at),
      plannedEndAtMs: body.planned_end_at === undefined ? trip.plannedEndAtMs : msOf(body.planned_end_at),
      origin: body.origin ? place(body.origin) : trip.origin,
      destination: body.destination ? place(body.destination) : trip.destination,
      updatedAtMs: nowMs,
    };
    if (next.plannedEndAtMs !== null && next.plannedEndAtMs <= next.plannedStartAtMs) {
      throw new ApiError('validation_failed', 'planned_end_at must be after planned_start_at.', {
        extensions: { errors: [{ field: 'planned_end_at', message: 'must be after planned_start_at' }] },
      });
    }
    if (body.stops) {
      const edit = editStops(
        trip,
        body.stops.map(sentStop),
        () => newId('tripStop', nowMs),
        (stop) => tripStopResource(stop, 0),
      );
      if (!edit.ok) {
        throw new ApiError(edit.code, `stops.${edit.field.split('.')[1]}: ${edit.message}.`, {
          extensions: { errors: [{ field: edit.field, message: edit.message }] },
        });
      }
      next = { ...next, stops: [...edit.dispatch, ...next.stops.filter((s) => s.type === 'fuel')] };
    }
    const moved = body.origin !== undefined || body.destination !== undefined;
    if (moved && trip.autoOptimize) {
      next = await withFuelStops(deps, next, await activeVehicle(deps, trip), nowMs);
      // Regenerated stops are returned stations: charged before the save (a refusal changes nothing).
      await charge(next);
    } else if (moved) {
      // Fuel stops planned (by /optimize) for the old route do not fit the new one: they go with
      // their plan, and /optimize plans new ones.
      next = await withRoute(
        deps,
        { ...next, stops: dispatchStops(next), fuelPlan: null },
        // The truck the route is for; a vehicle gone since (never expected) routes the fleet's.
        await deps.vehicles.get(trip.fleetId, trip.vehicleId),
      );
    } else {
      next = { ...next, stops: ordered(next) };
    }
    return { trip: next, write: (t) => deps.trips.save(t, trip.version) };
  });
}

/** The planned times a create or update body sends, named by their field. */
function plannedTimes(body: {
  planned_start_at?: string | undefined;
  planned_end_at?: string | null | undefined;
  stops?: readonly { type: string; planned_arrival_at?: string | null | undefined }[] | undefined;
}): PlannedTime[] {
  const times: PlannedTime[] = [];
  const add = (field: string, iso: string | null | undefined) => {
    const atMs = msOf(iso);
    if (atMs !== null) times.push({ field, atMs });
  };
  add('planned_start_at', body.planned_start_at);
  add('planned_end_at', body.planned_end_at);
  // A fuel stop sent back carries the system's time, checked for being unchanged instead.
  body.stops?.forEach((stop, i) => {
    if (stop.type !== 'fuel') add(`stops.${i}.planned_arrival_at`, stop.planned_arrival_at);
  });
  return times;
}

/** 422 naming every planned time outside the window of trip-times.ts, with the accepted range. */
function assertPlannedTimes(times: readonly PlannedTime[], nowMs: number): void {
  const errors = tripTimeProblems(times, nowMs);
  const first = errors[0];
  if (!first) return;
  throw new ApiError(
    'validation_failed',
    `The request body failed validation: ${first.field} ${first.message}.`,
    {
      extensions: { errors },
    },
  );
}

function sentStop(stop: NonNullable<UpdateTripBody['stops']>[number]): SentStop {
  if (stop.type === 'fuel') {
    const { sequence: _position, ...members } = stop;
    return { type: 'fuel', id: stop.id, members };
  }
  return {
    type: stop.type,
    id: stop.id,
    latitude: stop.latitude,
    longitude: stop.longitude,
    name: stop.name ?? null,
    plannedArrivalAtMs: msOf(stop.planned_arrival_at),
  };
}

/** DELETE /v1/trips/{id}: a planned trip is removed for good; any other is 409 invalid_trip_state. */
export async function deleteTrip(
  deps: Pick<TripDeps, 'trips'>,
  fleetId: string,
  tripId: string,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const trip = await getTrip(deps, fleetId, tripId);
    refuse(checkDeletable(trip));
    if ((await deps.trips.delete(fleetId, tripId, trip.version)) === 'stored') return;
    if (attempt >= MAX_ATTEMPTS) throw concurrentChange(tripId);
  }
}

/**
 * POST /v1/trips/{id}/start: planned → active, trip.started, and the vehicle's guidance toward the
 * destination with the trip's fuel stops. One active trip per vehicle: another one is 409
 * resource_conflict naming it.
 */
export async function startTrip(deps: TripStartDeps, fleetId: string, tripId: string): Promise<Trip> {
  return change(deps, fleetId, tripId, async (trip, nowMs) => {
    const started = accepted(transition(trip, 'start', nowMs, { guidanceId: newId('guidance', nowMs) }));
    await activeVehicle(deps, trip);
    return {
      trip: { ...started, outbox: { events: [tripEvent('trip.started', started)], guidance: 'start' } },
      write: async (t) => {
        const result = await deps.trips.start(t, trip.version);
        if (typeof result === 'object') {
          throw new ApiError(
            'resource_conflict',
            `Vehicle ${trip.vehicleId} already has an active trip, ${result.activeTripId}.`,
            {
              hint: `complete or cancel trip ${result.activeTripId} first`,
            },
          );
        }
        return result;
      },
    };
  });
}

/** POST /v1/trips/{id}/complete (active → completed) and /cancel (active → cancelled): the trip's guidance ends. */
export async function endTrip(
  deps: TripChangeDeps,
  fleetId: string,
  tripId: string,
  action: 'complete' | 'cancel',
  reason: string | null = null,
): Promise<Trip> {
  return change(deps, fleetId, tripId, async (trip, nowMs) => {
    const ended = accepted(transition(trip, action, nowMs, { reason }));
    const type = action === 'complete' ? 'trip.completed' : 'trip.cancelled';
    return {
      trip: { ...ended, outbox: { events: [tripEvent(type, ended)], guidance: 'end' } },
      write: (t) => deps.trips.end(t, trip.version),
    };
  });
}

/**
 * A deactivated vehicle drives no trip: its active trip is cancelled (reason `vehicle_deactivated`,
 * trip.cancelled). Its planned trips stay; starting one is 409 vehicle_inactive until it is
 * reactivated. Called by the vehicle's deactivation; repeating it is harmless.
 */
export async function cancelTripOfDeactivatedVehicle(
  deps: TripChangeDeps,
  fleetId: string,
  vehicleId: string,
): Promise<void> {
  const tripId = await deps.trips.activeTripOf(fleetId, vehicleId);
  if (!tripId) return;
  try {
    await endTrip(deps, fleetId, tripId, 'cancel', 'vehicle_deactivated');
  } catch (error) {
    // Completed or cancelled by someone else meanwhile: nothing left to do.
    if (!(error instanceof ApiError && error.code === 'invalid_trip_state')) throw error;
  }
}

/**
 * POST /v1/trips/{id}/optimize: the fuel stops again, a planned trip's from its origin, an active
 * one's from the vehicle's position and level (its guidance reopens with them).
 */
export async function optimizeTrip(
  deps: TripDeps,
  principal: Principal,
  fleetId: string,
  tripId: string,
): Promise<Trip> {
  const charge = fuelStopCharge(deps, principal, fleetId);
  return change(deps, fleetId, tripId, async (trip, nowMs) => {
    refuse(checkOptimizable(trip));
    const optimized = await withFuelStops(
      deps,
      { ...trip, updatedAtMs: nowMs },
      await activeVehicle(deps, trip),
      nowMs,
    );
    const next: Trip =
      trip.status === 'active'
        ? { ...optimized, guidanceId: newId('guidance', nowMs), outbox: { events: [], guidance: 'start' } }
        : optimized;
    // Charged before the save: a refused optimize leaves the trip (and its guidance) as it was.
    await charge(next);
    return { trip: next, write: (t) => deps.trips.save(t, trip.version) };
  });
}

/** POST /v1/trips/{id}/stops/{stopId}/arrive|depart: the dispatcher's word on an active trip. */
export async function recordTripStopVisit(
  deps: TripChangeDeps,
  fleetId: string,
  tripId: string,
  stopId: string,
  visit: 'arrive' | 'depart',
): Promise<void> {
  await change(deps, fleetId, tripId, async (trip, nowMs) => {
    refuse(checkVisitable(trip));
    if (!trip.stops.some((s) => s.id === stopId)) {
      throw new ApiError('resource_not_found', `Stop ${stopId} is not a stop of trip ${tripId}.`, {
        hint: `GET /v1/trips/${tripId} lists its stops`,
      });
    }
    const next = recordVisit(trip, stopId, visit, nowMs, nowMs) ?? trip;
    return {
      trip: next,
      write: (t) => (next === trip ? Promise.resolve('stored') : deps.trips.save(t, trip.version)),
    };
  });
}

async function activeVehicle(deps: Pick<TripStartDeps, 'vehicles'>, trip: Trip) {
  const vehicle = await deps.vehicles.get(trip.fleetId, trip.vehicleId);
  if (!vehicle)
    throw new ApiError('resource_not_found', `Vehicle ${trip.vehicleId} was not found in this fleet.`);
  assertActive(vehicle);
  return vehicle;
}

function refuse(refusal: TripRefusal | null): void {
  if (refusal) throw new ApiError(refusal.code, refusal.detail, { hint: refusal.hint });
}

function accepted(result: { ok: true; trip: Trip } | TripRefusal): Trip {
  if (!result.ok) refuse(result);
  return (result as { ok: true; trip: Trip }).trip;
}

const concurrentChange = (tripId: string) =>
  new ApiError('resource_conflict', `Trip ${tripId} changed concurrently; retry.`, {
    hint: 'read the trip again and retry',
  });

/**
 * Applies a change to the trip under its version, redoing it from fresh state when another writer
 * got there first (so of two concurrent starts of one trip, the second sees it active and is
 * refused). What the change leaves in the trip's outbox is carried out after the write: an event
 * never announces a change that lost the race.
 */
async function change(
  deps: TripChangeDeps,
  fleetId: string,
  tripId: string,
  apply: (trip: Trip, nowMs: number) => Promise<{ trip: Trip; write: (trip: Trip) => Promise<TripWrite> }>,
): Promise<Trip> {
  for (let attempt = 1; ; attempt++) {
    const current = await getTrip(deps, fleetId, tripId);
    await carryOutTrip(deps, current);
    const { trip, write } = await apply({ ...current, outbox: null }, deps.now());
    const next = { ...trip, version: current.version + 1 };
    if ((await write(next)) === 'stored') {
      // Committed: the caller gets its answer even if the follow-up fails now (a retried start
      // would be 409 invalid_trip_state); the outbox keeps the work for the next writer of the
      // trip, or the every-minute sweep (sweepTripOutboxes).
      await carryOutTrip(deps, next).catch((error: unknown) =>
        logger.warn('Trip follow-up left in the outbox', { tripId, error }),
      );
      return { ...next, outbox: null };
    }
    if (attempt >= MAX_ATTEMPTS) throw concurrentChange(tripId);
  }
}
