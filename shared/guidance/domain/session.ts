import { DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT } from '#shared/fleets/domain/fleet.ts';
import type { FuelPlanStatus, FuelProgramShortfall } from '#shared/fuel-plan/domain/types.ts';
import type { FuelTaxTreatment } from '#shared/fuel-tax/domain/treatment.ts';
import { freshnessOf } from '#shared/tracking/domain/freshness.ts';
import type { FuelAssumption, FuelLevelSource } from '#shared/tracking/domain/fuel-level.ts';
import type { GuidancePhase } from './phases.ts';
import { GUIDANCE_POLICY } from './policy.ts';

export const SESSION_STATUSES = ['active', 'completed', 'cancelled', 'superseded'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export const SESSION_END_REASONS = [
  'arrived',
  'caller_cancelled',
  'superseded',
  'vehicle_deactivated',
  'trip_completed',
  'trip_cancelled',
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

export interface Destination {
  latitude: number;
  longitude: number;
  name: string | null;
}

/** A recommended purchase, stable by station within a session (its id survives recomputes). */
export interface GuidanceStop {
  id: string;
  stationId: string;
  name: string;
  chain: string;
  latitude: number;
  longitude: number;
  address: string;
  /** Road miles from the vehicle's position to where it leaves the route for the station. */
  milesAhead: number;
  detourMiles: number;
  /** Null when the fuel level is estimated: guidance cannot give gallons without a level. */
  gallonsToBuy: number | null;
  price: number;
  discount: number;
  netPrice: number;
  priceIsStale: boolean;
  reason: string;
  recommendedAtMs: number;
  acknowledgedAtMs: number | null;
  /** The trip fuel stop (`tsp_`) this recommendation carries out, when the session follows a trip. */
  tripStopId?: string | null;
  // The price basis (fuel-tax/): absent on a stop without one, which reads as pump prices.
  /** Two-letter state of the station. */
  state?: string;
  /** The state diesel tax included in its pump price, USD per gallon (null: the table lacks the state). */
  stateTax?: number | null;
  /** How the session values a gallon (the vehicle's override, else the fleet's setting). */
  taxTreatment?: FuelTaxTreatment;
  /** netPrice − the credited state tax under `ifta`; netPrice under `pump`. */
  effectivePrice?: number;
  /**
   * The counterfactual of this purchase (what the fleet pays without our advice): the mean price of
   * the stations the truck could have bought at instead, on the same basis as effectivePrice —
   * `pumpPrice` without the fleet's discounts, `netPrice` with them. Null when no station but the
   * stop itself was in reach.
   */
  counterfactual?: { pumpPrice: number; netPrice: number; stationCount: number } | null;
  /**
   * Whether the fleet's fuel card is accepted at the station; null when its program has no rule.
   * Absent on stops stored before programs: read as null.
   */
  inFuelProgram?: boolean | null;
}

/** A trip's dispatcher stop as guidance watches it (`tsp_` id). */
export interface TripWatchedStop {
  stopId: string;
  name: string | null;
  latitude: number;
  longitude: number;
}

export interface SkippedStop {
  stopId: string;
  stationId: string;
  name: string;
  reason: string | null;
  skippedAtMs: number;
}

/** What the last guidance.updated announced, to judge whether a new plan is a material change. */
export interface AnnouncedStop {
  stationId: string;
  gallonsToBuy: number | null;
  netPrice: number;
}

/** The level the plan works from ({@link fuelLevelNow}). */
export interface FuelReading {
  percent: number;
  /** `estimated`: stored by sessions before projected and assumed were told apart; read as projected. */
  source: FuelLevelSource | 'estimated';
  /** When the level the figure comes from was reported; null when assumed. */
  reportedAtMs: number | null;
  /** The moment the level describes (absent in sessions stored before it: their position's time). */
  asOfMs?: number;
  /** Road miles since the report or the assumption's anchor (absent in sessions stored before it). */
  milesSince?: number;
}

/** Where a stored reading's level comes from, whenever the session was stored. */
export const fuelLevelSourceOf = (fuel: Pick<FuelReading, 'source'>): FuelLevelSource =>
  fuel.source === 'estimated' ? 'projected' : fuel.source;

export interface GuidanceSession {
  id: string;
  vehicleId: string;
  /** The dispatch trip (`trip_`) this session follows, when a trip started it. */
  tripId?: string | null;
  /** That trip's dispatcher stops (pickup, delivery, …), watched for GPS arrival and departure. */
  tripStops?: TripWatchedStop[];
  status: SessionStatus;
  endReason: SessionEndReason | null;
  phase: GuidancePhase;
  destination: Destination;
  minArrivalFuelPercent: number;
  stops: GuidanceStop[];
  skipped: SkippedStop[];
  announced: AnnouncedStop[];
  /** Stops guidance.stop_approaching already fired for. */
  approachedStopIds: string[];
  planReason: string | null;
  /**
   * The status of the last plan on the route (null before the first, or while waiting for a
   * position or a fuel level); absent in sessions stored before it: read from the phase.
   */
  planStatus?: FuelPlanStatus | null;
  /** Set when planStatus is `no_accepted_station_in_range` (fuel-plan/fuel-program.ts). */
  fuelProgramShortfall?: FuelProgramShortfall | null;
  remainingMiles: number | null;
  projectedArrivalFuelPercent: number | null;
  fuel: FuelReading | null;
  /**
   * The level a truck that never reported one is taken to depart with (the fleet's
   * assumed_departure_fuel_percent when the session started), anchored on the odometer at the
   * first plan that used it; later plans burn the miles driven since. Absent in sessions stored
   * before it: 100 %, anchored at the next plan.
   */
  fuelAssumption?: FuelAssumption;
  /**
   * The fleet's assumed_departure_fuel_percent when the session started: the level a departure
   * after a fill re-anchors the assumption at. Absent in sessions stored before it: a full tank.
   */
  assumedDepartureFuelPercent?: number;
  position: { latitude: number; longitude: number; recordedAtMs: number } | null;
  /** Set by a skip: the next cycle replans even while the vehicle dwells at a stop. */
  forceReplan: boolean;
  /**
   * The revision of the stored route the plan follows (guidance-routes.ts); absent before the
   * first plan on a route, and in sessions stored before revisions.
   */
  routeRevision?: number;
  /** Counts guidance.updated announcements. */
  revision: number;
  createdAtMs: number;
  updatedAtMs: number;
  planUpdatedAtMs: number | null;
  endedAtMs: number | null;
  /**
   * The account the key that started the session bills to; the guidance worker charges the
   * session's re-plans there. It matters where that is not the fleet's own account: the sandbox
   * simulator's sessions bill to `sandbox-simulator`. Absent (older sessions, trips): the fleet's.
   */
  billingAccountId?: string;
}

export type StopSetChange = 'created' | 'refreshed' | 'cleared';

/**
 * Whether a new stop set differs materially from the announced one: another station list (order
 * included), or a stop's gallons or net price moving past the policy's thresholds. Small drifts
 * from breadcrumb to breadcrumb (a gallon here, a tenth of a mile there) are not news.
 */
export function stopSetChange(
  announced: readonly AnnouncedStop[],
  next: readonly AnnouncedStop[],
): StopSetChange | null {
  if (next.length === 0) return announced.length === 0 ? null : 'cleared';
  if (announced.length !== next.length) return 'refreshed';
  for (const [i, stop] of next.entries()) {
    const before = announced[i] as AnnouncedStop;
    if (before.stationId !== stop.stationId) return 'refreshed';
    if ((before.gallonsToBuy === null) !== (stop.gallonsToBuy === null)) return 'refreshed';
    if (
      before.gallonsToBuy !== null &&
      stop.gallonsToBuy !== null &&
      Math.abs(before.gallonsToBuy - stop.gallonsToBuy) >= GUIDANCE_POLICY.materialGallonsChange
    )
      return 'refreshed';
    if (Math.abs(before.netPrice - stop.netPrice) >= GUIDANCE_POLICY.materialNetPriceChange - 1e-9)
      return 'refreshed';
  }
  return null;
}

export const announcedOf = (stops: readonly GuidanceStop[]): AnnouncedStop[] =>
  stops.map((s) => ({ stationId: s.stationId, gallonsToBuy: s.gallonsToBuy, netPrice: s.netPrice }));

/** Phase of a feasible plan with stops, by how far ahead the first stop is. */
export function phaseForStops(stops: readonly GuidanceStop[]): GuidancePhase {
  const first = stops[0];
  if (!first) return 'no_stop_needed';
  return first.milesAhead <= GUIDANCE_POLICY.approachRadiusMiles ? 'approaching_stop' : 'stop_recommended';
}

/** Phases after which the session is over; a stale position never masks them. */
export const isTerminal = (session: Pick<GuidanceSession, 'status'>) => session.status !== 'active';

/**
 * The status of the session's plan; null before its first plan. A session stored before plans kept
 * their status reads it from its phase and stops.
 */
export function planStatusOf(
  session: Pick<GuidanceSession, 'planStatus' | 'planUpdatedAtMs' | 'phase' | 'stops'>,
): FuelPlanStatus | null {
  if (session.planStatus !== undefined) return session.planStatus;
  if (session.planUpdatedAtMs === null) return null;
  if (session.phase === 'cannot_reach') return 'infeasible';
  return session.stops.length === 0 ? 'no_stop_needed' : 'ok';
}

/** The phase a reader sees: a position graded stale overrides what the last recompute concluded. */
export function phaseAsRead(
  session: Pick<GuidanceSession, 'status' | 'phase' | 'position'>,
  nowMs: number,
): GuidancePhase {
  if (isTerminal(session) || !session.position) return session.phase;
  return freshnessOf(session.position.recordedAtMs, nowMs) === 'stale' ? 'data_stale' : session.phase;
}

/** A new session; the first plan is computed from the vehicle's state right after. */
export function startSession(input: {
  id: string;
  vehicleId: string;
  destination: Destination;
  minArrivalFuelPercent: number;
  /** The fleet's assumed_departure_fuel_percent (omitted: the default, a full tank). */
  assumedDepartureFuelPercent?: number;
  nowMs: number;
  billingAccountId?: string;
}): GuidanceSession {
  return {
    ...(input.billingAccountId === undefined ? {} : { billingAccountId: input.billingAccountId }),
    id: input.id,
    vehicleId: input.vehicleId,
    status: 'active',
    endReason: null,
    phase: 'awaiting_position',
    destination: input.destination,
    minArrivalFuelPercent: input.minArrivalFuelPercent,
    stops: [],
    skipped: [],
    announced: [],
    approachedStopIds: [],
    planReason: null,
    remainingMiles: null,
    projectedArrivalFuelPercent: null,
    fuel: null,
    fuelAssumption: {
      percent: input.assumedDepartureFuelPercent ?? DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
      atMs: input.nowMs,
      odometerMiles: null,
    },
    assumedDepartureFuelPercent: input.assumedDepartureFuelPercent ?? DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
    position: null,
    forceReplan: false,
    revision: 0,
    createdAtMs: input.nowMs,
    updatedAtMs: input.nowMs,
    planUpdatedAtMs: null,
    endedAtMs: null,
  };
}

export function endSession(
  session: GuidanceSession,
  reason: SessionEndReason,
  nowMs: number,
): GuidanceSession {
  const status: SessionStatus =
    reason === 'arrived' ? 'completed' : reason === 'superseded' ? 'superseded' : 'cancelled';
  return {
    ...session,
    status,
    endReason: reason,
    phase: reason === 'arrived' ? 'arrived' : session.phase,
    stops: [],
    updatedAtMs: nowMs,
    endedAtMs: nowMs,
  };
}

export type StopAction =
  | { ok: true; session: GuidanceSession }
  | { ok: false; problem: 'unknown_stop' | 'stop_skipped' | 'too_many_skips' };

/** A session holds at most this many skips: past that, the trip needs a new session, not more exclusions. */
export const MAX_SKIPPED_STOPS = 50;

export function acknowledgeStop(session: GuidanceSession, stopId: string, nowMs: number): StopAction {
  if (session.skipped.some((s) => s.stopId === stopId)) return { ok: false, problem: 'stop_skipped' };
  const stop = session.stops.find((s) => s.id === stopId);
  if (!stop) return { ok: false, problem: 'unknown_stop' };
  if (stop.acknowledgedAtMs !== null) return { ok: true, session };
  return {
    ok: true,
    session: {
      ...session,
      stops: session.stops.map((s) => (s.id === stopId ? { ...s, acknowledgedAtMs: nowMs } : s)),
      updatedAtMs: nowMs,
    },
  };
}

/**
 * The station leaves this session for good and the next cycle must replan, even at a stop. A stop
 * skipped twice is still one skip (the second call changes nothing).
 */
export function skipStop(
  session: GuidanceSession,
  stopId: string,
  reason: string | null,
  nowMs: number,
): StopAction {
  if (session.skipped.some((s) => s.stopId === stopId)) return { ok: true, session };
  const stop = session.stops.find((s) => s.id === stopId);
  if (!stop) return { ok: false, problem: 'unknown_stop' };
  if (session.skipped.length >= MAX_SKIPPED_STOPS) return { ok: false, problem: 'too_many_skips' };
  return {
    ok: true,
    session: {
      ...session,
      stops: session.stops.filter((s) => s.id !== stopId),
      skipped: [
        ...session.skipped,
        { stopId, stationId: stop.stationId, name: stop.name, reason, skippedAtMs: nowMs },
      ],
      forceReplan: true,
      updatedAtMs: nowMs,
    },
  };
}
