import {
  detectedMatchedFill,
  fuelingMatchedEvent,
  fuelingRecordedEvent,
  fuelLowEvent,
  stopArrivedEvent,
  stopDepartedEvent,
  vehicleOnlineEvent,
} from '#shared/events/domain/event-payloads.ts';
import { DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT } from '#shared/fleets/domain/fleet.ts';
import type { FleetStore } from '#shared/fleets/store/fleets.ts';
import type { FuelTaxRatesProvider } from '#shared/fuel-tax/usecases/fuel-tax-rates.ts';
import {
  netRecommendationChanges,
  type RecommendationChange,
  recommendationChanges,
} from '#shared/fuelings/domain/recommendations.ts';
import { type PendingVerification, recheckStep } from '#shared/fuelings/domain/verification-recheck.ts';
import type { FuelingStore } from '#shared/fuelings/store/fuelings.ts';
import { fillTreatment, withPriceBasis } from '#shared/fuelings/usecases/fill-basis.ts';
import { recheckPurchases } from '#shared/fuelings/usecases/purchase-verification.ts';
import { isRoutingFailure } from '#shared/geo/routing-errors.ts';
import type { GuidanceUpdate } from '#shared/guidance/domain/announcement.ts';
import type { GuidanceSession } from '#shared/guidance/domain/session.ts';
import { snapshotOf, type VehicleSnapshot } from '#shared/guidance/domain/snapshot.ts';
import { stopsDatedByEventTime } from '#shared/guidance/domain/stop-dates.ts';
import { type GuidancePlanDeps, replan } from '#shared/guidance/usecases/guidance-plan.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { tripStopOf, tripWatchedStops } from '#shared/trips/domain/trip-guidance.ts';
import { recordTripStopVisits, type TripStopVisitDeps } from '#shared/trips/usecases/trip-stop-visits.ts';
import { routingFailureReason } from '#shared/truck-routes/usecases/routing-failure-reason.ts';
import type { Vehicle } from '#shared/vehicles/domain/vehicle.ts';
import type { VehicleStore } from '#shared/vehicles/store/vehicles.ts';
import { mustCommit } from '../domain/commit-policy.ts';
import { assumptionAfterFill, FUEL_LEVEL_POLICY, givesGallons } from '../domain/fuel-level.ts';
import { detectedFueling, type Fueling } from '../domain/fueling-record.ts';
import { travelHeading } from '../domain/heading.ts';
import type { VehicleUpdateMessage } from '../domain/messages.ts';
import { type OutboxEvent, outboxOf, type RecheckedPurchase } from '../domain/outbox.ts';
import type { HistoryPoint, RecentPositions } from '../domain/positions.ts';
import {
  matchShownStop,
  type ShownStop,
  type ShownStopFacts,
  shownStopsAfter,
  shownTripStop,
  watchedShownStops,
} from '../domain/shown-stops.ts';
import { advanceTracker, type Detection, type WatchedStop } from '../domain/tracker.ts';
import type { TrackerState } from '../domain/types.ts';
import { isFirstCycle, type VehicleTracking } from '../domain/vehicle-tracking.ts';
import type { VehiclePositionStore } from '../store/vehicle-positions.ts';
import type { VehicleTrackingStore } from '../store/vehicle-tracking.ts';
import { carryOut, type OutboxDeps } from './tracking-outbox.ts';

export interface VehicleUpdateDeps extends GuidancePlanDeps, OutboxDeps {
  /** Trips whose stops the vehicle's GPS visits (arrived_at/departed_at). */
  trips: TripStopVisitDeps['trips'];
  vehicles: Pick<VehicleStore, 'get'>;
  positions: Pick<VehiclePositionStore, 'recent' | 'historySince' | 'rejoinOnlineIndex'>;
  tracking: VehicleTrackingStore;
  now: () => number;
  /**
   * Charges the stations a committed re-plan newly recommended to the fleet's station budget (as
   * overage past it; station-budget.ts `chargeReplannedStations`). Never throws, never refuses.
   */
  chargeReplannedStations?: (fleetId: string, count: number, billingAccountId?: string) => Promise<void>;
  /**
   * The vehicle's fills on record: a reported fill re-anchors an assumed level (fuel-level.ts), and
   * a reported purchase waiting for late breadcrumbs is re-checked (purchase-verification.ts).
   */
  recordedFills?: Pick<FuelingStore, 'ofVehicleBetween' | 'get'>;
  /** A detected fill is priced on the fleet's basis: the tax table… */
  fuelTaxes: FuelTaxRatesProvider;
  /** …and the fleet's treatment (the vehicle's override wins). */
  fleets: Pick<FleetStore, 'get'>;
}

/** A cycle that lost the version race to another writer starts over from the newer state. */
const MAX_CYCLE_ATTEMPTS = 5;

/**
 * The guidance worker's cycle for one vehicle: consume the breadcrumbs it has not seen (in recorded
 * order), detect arrivals, departures, fuelings and low fuel, note that it is online again, bring
 * its guidance session up to date, then commit the tracking item conditionally on its version,
 * with the cycle's events, fuelings and ended session in its outbox, and carry those out. Nothing
 * is recorded before the commit: a cycle that loses a race is redone from the winner's state and
 * announces nothing of its own. Everything is recomputed from stored state, so a redelivered,
 * duplicated or reordered message finds nothing new to do. A quiet cycle (nothing to announce or
 * carry out, the session unchanged: commit-policy.ts) writes nothing; the next one replays its
 * breadcrumbs from the stored state.
 */
export async function processVehicleUpdate(
  deps: VehicleUpdateDeps,
  message: VehicleUpdateMessage,
): Promise<{ events: OutboxEvent[] }> {
  const { fleetId, vehicleId } = message;
  for (let attempt = 1; ; attempt++) {
    // The first attempt reads the tracking item eventually consistent: the cycle's write is
    // conditional on its version, so a stale read only costs a second, consistent attempt.
    // The vehicle and its position item as ingest read and wrote them, when the message carries them.
    let [vehicle, positions, tracking] = await Promise.all([
      message.vehicle ?? deps.vehicles.get(fleetId, vehicleId),
      message.positions ?? deps.positions.recent(fleetId, vehicleId, message.positionVersion),
      deps.tracking.get(fleetId, vehicleId, { consistent: attempt > 1 }),
    ]);
    // A vehicle's first cycle reads them: the snapshots may predate a sandbox reset, which deleted
    // the vehicle's items (replaying them would bring back the state from before it).
    if (isFirstCycle(tracking) && (message.vehicle || message.positions)) {
      [vehicle, positions] = await Promise.all([
        deps.vehicles.get(fleetId, vehicleId),
        deps.positions.recent(fleetId, vehicleId, message.positionVersion),
      ]);
    }
    // What an earlier change committed but did not finish comes first, so events keep their order.
    await carryOut(deps, tracking);
    if (!vehicle || !positions) return { events: [] };
    const cycle = await runCycle(deps, vehicle, positions, tracking);
    if (!mustCommit(tracking, cycle.tracking, cycle.replayedFixes)) return { events: [] };
    const stored = await deps.tracking.save(cycle.tracking);
    if (stored) {
      // Back online (or never seen): in the online index again, in case the offline sweep took the
      // position item out while this cycle was behind (its next breadcrumb would, but may not come).
      if (isFirstCycle(tracking) || (tracking.offline && !stored.offline)) {
        await deps.positions.rejoinOnlineIndex(fleetId, vehicleId, positions.latest.receivedAtMs);
      }
      // Charged once the re-plan is committed: a cycle that lost the race recommended nothing.
      const recommended = (cycle.tracking.outbox?.recommendations ?? []).filter(
        (change) => change.kind === 'recommended',
      ).length;
      await deps.chargeReplannedStations?.(fleetId, recommended, cycle.tracking.session?.billingAccountId);
      await carryOut(deps, stored);
      await recordTripStopVisits(deps, fleetId, cycle.events);
      return { events: cycle.events };
    }
    if (attempt >= MAX_CYCLE_ATTEMPTS) {
      throw new Error(`vehicle ${vehicleId}: state changed under ${attempt} cycles in a row`);
    }
  }
}

async function runCycle(
  deps: VehicleUpdateDeps,
  vehicle: Vehicle,
  positions: RecentPositions,
  tracking: VehicleTracking,
): Promise<{ tracking: VehicleTracking; events: OutboxEvent[]; replayedFixes: number }> {
  const { fleetId } = tracking;
  const { latest } = positions;
  // Processing time, only for when a record was written (a fueling's created_at): never before the
  // newest breadcrumb's receipt, as a sandbox twin's test clock runs ahead of the wall clock.
  const processedAtMs = Math.max(deps.now(), latest.receivedAtMs);
  const fixes = await unconsumedFixes(deps, positions, tracking);
  const events: OutboxEvent[] = [];
  const heardNewer = latest.receivedAtMs > (tracking.lastSeenMs ?? -Infinity);
  if (tracking.offline && heardNewer) {
    events.push(vehicleOnlineEvent(vehicle.id, tracking.lastSeenMs, latest));
  }
  const cycleDeps = { ...deps, fleets: fleetReadOnce(deps.fleets) };
  const fuelings: Fueling[] = [];
  const changes: RecommendationChange[] = [];
  let state = tracking.tracker;
  let shownStops = tracking.shownStops ?? [];
  let nextSession = tracking.session;
  let endedSession: GuidanceSession | null = null;
  // Event time: each breadcrumb is consumed on its own, in recorded order, against the plan as it
  // stood at that breadcrumb, and the plan is made again at its recorded_at, exactly as a live feed's
  // one-breadcrumb cycles would. A buffered upload (minutes or hours late, in one burst, out of
  // order) so gives the events, times and matches the live feed gave.
  const fills = await reportedFillsSince(deps, fleetId, tracking.session, latest);
  const steps: (HistoryPoint | null)[] = fixes.length > 0 ? fixes : [null];
  for (const [index, fix] of steps.entries()) {
    const atMs = eventTimeOf(fix, latest);
    const current = nextSession?.status === 'active' ? nextSession : null;
    // A stop shown by a start plan dated at request time is dated by the replayed day's own time.
    const session = current && stopsDatedByEventTime(current, atMs);
    // The stops shown earlier that a fill would still match are watched too: a driver who saw one
    // may fuel there after the plan moved on, the stop was skipped or the session ended.
    const shown = watchedShownStops(shownStops, session, atMs);
    const context = {
      watchedStops: [...shown.map((entry) => watchedStop(entry.stop)), ...tripWatchedStops(session)],
      tankGallons: vehicle.tankSizeGallons,
      mpg: vehicle.estimatedMpg,
    };
    const before = state.processedThroughMs;
    const advanced = advanceTracker(state, fix ? [fix] : [], context);
    state = advanced.state;
    const last = index === steps.length - 1;
    // A breadcrumb detection skipped (malformed, older than the state) changes nothing to replan.
    if (!last && state.processedThroughMs === before) continue;
    for (const detection of advanced.detections) {
      const found = eventsOf(detection, vehicle, session, shown, processedAtMs);
      events.push(...found.events);
      if (found.fueling) {
        const basis = { fuelTaxes: deps.fuelTaxes, fleets: deps.fleets };
        const treatment = await fillTreatment(basis, fleetId, vehicle);
        fuelings.push(await withPriceBasis(basis, found.fueling, treatment));
      }
    }
    // A breadcrumb the session's plan already saw past (a quiet cycle's, replayed after guidance
    // started from a newer position) is detection's alone: the plan never goes back in time.
    if (!session || (fix && fix.recordedAtMs <= (session.position?.recordedAtMs ?? -Infinity))) continue;
    // A departure this step: the plan after it starts afresh, without the station just left.
    const leftStationIds = advanced.detections.flatMap((d) =>
      d.kind === 'stop_departed' && d.stop.stationId ? [d.stop.stationId] : [],
    );
    const refueled = advanced.detections.some((d) => d.kind === 'fueling');
    // The stored latest position (and its heading) counts only at the last step: it is the newest
    // breadcrumb; an earlier one's heading is read from the breadcrumbs before it, as ingest would.
    const stepped = snapshotOf(
      vehicle,
      state,
      last ? latest : null,
      afterReportedFill(
        vehicle,
        afterFillDeparture(vehicle, session, state, advanced.detections, last ? latest : null),
        state,
        fills,
        atMs,
        last ? latest : null,
      ),
    );
    const headingDegrees =
      last || !fix ? stepped.headingDegrees : travelHeading(fix, [...positions.recent, ...fixes]);
    const snapshot = { ...stepped, headingDegrees, leftStationIds, refueled };
    const planned = await replanOrKeep(cycleDeps, fleetId, session, snapshot, atMs);
    // Against the session as stored: a re-dated stop's record takes its earlier date.
    changes.push(...recommendationChanges(current, planned.session, atMs));
    shownStops = shownStopsAfter(shownStops, current, planned.session, atMs);
    nextSession = planned.session;
    events.push(...planned.events);
    if (nextSession.status !== 'active') endedSession = nextSession;
  }
  const purchases = await recheckDuePurchases(
    deps,
    vehicle,
    tracking,
    fixes,
    positions,
    fuelings,
    processedAtMs,
  );
  events.push(...purchases.events);
  return {
    tracking: {
      ...tracking,
      tracker: state,
      session: nextSession,
      // Those withdrawn longer than the match window before the newest breadcrumb are forgotten.
      shownStops: shownStopsAfter(
        shownStops,
        nextSession,
        nextSession,
        state.processedThroughMs ?? eventTimeOf(null, latest),
      ),
      lastSeenMs: heardNewer ? latest.receivedAtMs : tracking.lastSeenMs,
      offline: tracking.offline && !heardNewer,
      pendingVerifications: purchases.waiting,
      outbox: outboxOf(
        events,
        fuelings,
        endedSession ? [endedSession] : [],
        netRecommendationChanges(changes),
        purchases.verifications,
      ),
    },
    events,
    replayedFixes: fixes.length,
  };
}

/**
 * The reported purchases waiting on the vehicle whose window this cycle's breadcrumbs completed,
 * re-checked once (fuelings/verification-recheck.ts), and those still waiting. Judged on the
 * breadcrumbs' recorded times: the cycle's batch and the vehicle's newest breadcrumb.
 */
async function recheckDuePurchases(
  deps: VehicleUpdateDeps,
  vehicle: Vehicle,
  tracking: VehicleTracking,
  fixes: readonly HistoryPoint[],
  positions: RecentPositions,
  detections: readonly Fueling[],
  checkedAtMs: number,
): Promise<{ waiting: PendingVerification[]; verifications: RecheckedPurchase[]; events: OutboxEvent[] }> {
  const pending = tracking.pendingVerifications ?? [];
  if (pending.length === 0 || !deps.recordedFills)
    return { waiting: [...pending], verifications: [], events: [] };
  const { due, waiting } = recheckStep(
    pending,
    fixes.map((fix) => fix.recordedAtMs),
    positions.latest.recordedAtMs,
  );
  if (due.length === 0) return { waiting, verifications: [], events: [] };
  const rechecked = await recheckPurchases(
    { positions: deps.positions, fuelings: deps.recordedFills },
    tracking.fleetId,
    vehicle,
    due,
    detections,
    positions,
    checkedAtMs,
  );
  return { waiting, ...rechecked };
}

/**
 * The session with its fuel assumption re-anchored when this step departed a fuel station after a
 * fill-long dwell and the level is not reported (fuel-level.ts FUEL_LEVEL_POLICY): a truck without
 * a sensor has no detected fueling, and the fleet's departure level is the best thing known after
 * a stop at the pumps. A level still reported then needs no assumption: its next reading shows the fill.
 */
function afterFillDeparture(
  vehicle: Vehicle,
  session: GuidanceSession,
  state: TrackerState,
  detections: readonly Detection[],
  latest: RecentPositions['latest'] | null,
): GuidanceSession {
  const departure = detections.find(
    (d) =>
      d.kind === 'stop_departed' && d.stop.stationId && d.dwellMinutes >= FUEL_LEVEL_POLICY.fillDwellMinutes,
  );
  if (departure?.kind !== 'stop_departed') return session;
  const level = snapshotOf(vehicle, state, latest, session).fuel;
  if (level && givesGallons(level)) return session;
  const fuelAssumption = assumptionAfterFill(
    {
      kind: 'departure',
      assumedPercent: session.assumedDepartureFuelPercent ?? DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
    },
    { atMs: departure.atMs, odometerMiles: state.odometerMiles ?? 0 },
  );
  return { ...session, fuelAssumption };
}

/**
 * The reported fills (POST /v1/fuelings with gallons) since the session's assumption was last
 * anchored, for a session whose level is not reported: one read a cycle, only for such trucks.
 */
async function reportedFillsSince(
  deps: VehicleUpdateDeps,
  fleetId: string,
  session: GuidanceSession | null,
  latest: RecentPositions['latest'],
): Promise<{ fueledAtMs: number; gallons: number }[]> {
  if (!deps.recordedFills || session?.status !== 'active' || session.fuel?.source === 'reported') return [];
  const fromMs = session.fuelAssumption?.filledAtMs ?? session.createdAtMs;
  const toMs = Math.max(latest.recordedAtMs, latest.receivedAtMs);
  if (toMs < fromMs) return [];
  const fills = await deps.recordedFills.ofVehicleBetween(
    fleetId,
    session.vehicleId,
    formatTimestamp(fromMs),
    formatTimestamp(toMs),
  );
  return fills.flatMap((fill) =>
    fill.source === 'reported' && fill.gallons !== null && fill.gallons > 0
      ? [{ fueledAtMs: Date.parse(fill.fueledAt), gallons: fill.gallons }]
      : [],
  );
}

/**
 * The session with its fuel assumption re-anchored on the newest reported fill at or before this
 * step and after the assumption's last anchor, when the level is not reported: the level then plus
 * the gallons, capped at a full tank. A fill reported hours later adds its gallons to the level
 * burned down since, so the level errs low, never high.
 */
function afterReportedFill(
  vehicle: Vehicle,
  session: GuidanceSession,
  state: TrackerState,
  fills: readonly { fueledAtMs: number; gallons: number }[],
  atMs: number,
  latest: RecentPositions['latest'] | null,
): GuidanceSession {
  const anchoredAtMs = session.fuelAssumption?.filledAtMs ?? session.createdAtMs;
  const fill = fills
    .filter((f) => f.fueledAtMs > anchoredAtMs && f.fueledAtMs <= atMs)
    .sort((a, b) => b.fueledAtMs - a.fueledAtMs)[0];
  const tankGallons = vehicle.tankSizeGallons;
  if (!fill || tankGallons === null || !(tankGallons > 0)) return session;
  const level = snapshotOf(vehicle, state, latest, session).fuel;
  if (level && givesGallons(level)) return session;
  const fuelAssumption = assumptionAfterFill(
    { kind: 'gallons', levelBeforePercent: level?.percent ?? 0, gallons: fill.gallons, tankGallons },
    { atMs: fill.fueledAtMs, odometerMiles: state.odometerMiles ?? 0 },
  );
  return { ...session, fuelAssumption };
}

/**
 * The time a step judges and stamps with: its breadcrumb's recorded_at; a cycle without a new
 * breadcrumb (a redelivery, a session started before the first cycle) the newest one's.
 */
const eventTimeOf = (fix: HistoryPoint | null, latest: RecentPositions['latest']) =>
  fix?.recordedAtMs ?? latest.recordedAtMs;

/**
 * The fleet (its fuel card program, its tax treatment) read once per cycle, however many
 * breadcrumbs it replans at; every cycle reads it afresh, so a program changed while a session
 * runs is honoured by the next plan.
 */
function fleetReadOnce(fleets: VehicleUpdateDeps['fleets']): VehicleUpdateDeps['fleets'] {
  const read = new Map<string, ReturnType<VehicleUpdateDeps['fleets']['get']>>();
  return {
    get(fleetId) {
      const cached = read.get(fleetId) ?? fleets.get(fleetId);
      read.set(fleetId, cached);
      return cached;
    },
  };
}

/**
 * The breadcrumbs the tracker has not consumed, up to the latest position: from the position item's
 * ring when it reaches back that far (the usual case: the worker keeps up), else from history too.
 */
async function unconsumedFixes(
  deps: Pick<VehicleUpdateDeps, 'positions'>,
  positions: RecentPositions,
  tracking: VehicleTracking,
): Promise<HistoryPoint[]> {
  const { latest, recent, flushedThroughMs } = positions;
  const afterMs = tracking.tracker.processedThroughMs;
  if (afterMs !== null && (flushedThroughMs === null || afterMs >= flushedThroughMs)) {
    return recent.filter(
      (point) => point.recordedAtMs > afterMs && point.recordedAtMs <= latest.recordedAtMs,
    );
  }
  // With the item read before: history is queried after it, so a flush in between is not missed.
  const { fleetId, vehicleId } = tracking;
  return deps.positions.historySince(fleetId, vehicleId, afterMs, latest.recordedAtMs, positions);
}

/**
 * When the routing engine cannot answer (no road reaches the position, a timeout, no capacity),
 * the session keeps its plan and says why, and the next breadcrumb tries again: failing the
 * message would also hold back detection and last-seen, and a vehicle that keeps reporting would
 * end in the DLQ and be swept offline.
 */
async function replanOrKeep(
  deps: VehicleUpdateDeps,
  fleetId: string,
  session: GuidanceSession,
  snapshot: VehicleSnapshot,
  nowMs: number,
): Promise<GuidanceUpdate> {
  try {
    return await replan(deps, fleetId, session, snapshot, nowMs);
  } catch (error) {
    if (!isRoutingFailure(error)) throw error;
    return {
      session: {
        ...session,
        position: snapshot.position,
        planReason: routingFailureReason(error),
        updatedAtMs: nowMs,
      },
      events: [],
    };
  }
}

const watchedStop = (stop: ShownStopFacts): WatchedStop => ({
  stopId: stop.id,
  stationId: stop.stationId,
  name: stop.name,
  latitude: stop.latitude,
  longitude: stop.longitude,
});

/**
 * The events (and the fueling record) one detection produces. A stop of the current session is
 * told as that session's; a stop shown earlier (withdrawn, skipped, or of a session that ended) as
 * the session that showed it.
 */
function eventsOf(
  detection: Detection,
  vehicle: Vehicle,
  session: GuidanceSession | null,
  shown: readonly ShownStop[],
  processedAtMs: number,
): { events: OutboxEvent[]; fueling?: Fueling } {
  const vehicleId = vehicle.id;
  const shownAs = (stopId: string) =>
    session?.stops.some((stop) => stop.id === stopId)
      ? null
      : shown.find((entry) => entry.stop.id === stopId);
  const visitOf = (stop: WatchedStop) => {
    const earlier = shownAs(stop.stopId);
    return earlier
      ? { guidanceId: earlier.guidanceId, tripStop: shownTripStop(earlier) }
      : { guidanceId: session?.id ?? null, tripStop: tripStopOf(session, stop) };
  };
  switch (detection.kind) {
    case 'stop_arrived': {
      const visit = visitOf(detection.stop);
      return { events: [stopArrivedEvent(vehicleId, visit.guidanceId, detection, visit.tripStop)] };
    }
    case 'stop_departed': {
      const visit = visitOf(detection.stop);
      return { events: [stopDepartedEvent(vehicleId, visit.guidanceId, detection, visit.tripStop)] };
    }
    case 'fuel_low':
      return { events: [fuelLowEvent(vehicleId, detection)] };
    case 'fueling': {
      const match = matchShownStop(shown, detection);
      const matched = match ? { guidanceId: match.guidanceId, tripId: match.tripId, stop: match.stop } : null;
      const fueling = detectedFueling(vehicle, detection, matched, processedAtMs);
      const recorded = fuelingRecordedEvent(fueling.id, vehicleId, detection);
      if (!match) return { events: [recorded], fueling };
      const of = { id: match.guidanceId, tripId: match.tripId };
      return {
        events: [
          recorded,
          fuelingMatchedEvent(detectedMatchedFill(fueling.id, vehicle, of, match.stop, detection)),
        ],
        fueling,
      };
    }
  }
}
