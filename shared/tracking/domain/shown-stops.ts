import type { TripStopRef } from '#shared/events/domain/event-payloads.ts';
import { MATCH_WINDOW_HOURS } from '#shared/fuelings/domain/match-window.ts';
import { inMatchWindow } from '#shared/fuelings/domain/matching.ts';
import { FUELING_POLICY } from '#shared/fuelings/domain/policy.ts';
import type { GuidanceSession, GuidanceStop } from '#shared/guidance/domain/session.ts';
import { haversineMiles } from '#shared/kernel/distance.ts';
import type { MatchedStopFacts } from './fueling-record.ts';

/**
 * A stop the vehicle's guidance showed, kept on the tracking item while a fill there would still
 * match it (the match window after it left the plan): the driver who saw it may
 * drive there after the plan moved on, the stop was skipped or the session ended. The worker
 * watches these for arrival and departure, and matches a detected fill to them, as it does the
 * session's current stops.
 */
export interface ShownStop {
  guidanceId: string;
  tripId: string | null;
  stop: ShownStopFacts;
  /** When the stop left the plan (the time of the change that dropped it); null while it stands. */
  withdrawnAtMs: number | null;
}

/**
 * What a stop's arrival, departure and matched fill tell of it: what a fill record keeps of the
 * stop it matched, with the gallons it advised and when. The plan's wording (`reason`) and
 * distances are left out: the tracking item is rewritten every cycle and billed by its size.
 */
export type ShownStopFacts = MatchedStopFacts &
  Pick<GuidanceStop, 'gallonsToBuy' | 'recommendedAtMs' | 'tripStopId'>;

/** Kept at most: a vehicle is shown a few stops in six hours; a bound keeps the item small whatever happens. */
const MAX_SHOWN_STOPS = 8;

const factsOf = (stop: GuidanceStop): ShownStopFacts => ({
  id: stop.id,
  stationId: stop.stationId,
  name: stop.name,
  chain: stop.chain,
  latitude: stop.latitude,
  longitude: stop.longitude,
  address: stop.address,
  gallonsToBuy: stop.gallonsToBuy,
  price: stop.price,
  discount: stop.discount,
  netPrice: stop.netPrice,
  recommendedAtMs: stop.recommendedAtMs,
  ...(stop.tripStopId ? { tripStopId: stop.tripStopId } : {}),
});

const standing = (session: GuidanceSession | null | undefined): readonly GuidanceStop[] =>
  session?.status === 'active' ? session.stops : [];

const isRecent = (entry: ShownStop, atMs: number) =>
  entry.withdrawnAtMs === null || entry.withdrawnAtMs >= atMs - MATCH_WINDOW_HOURS * 3_600_000;

/** The session's current stops as shown stops (kept in the session itself, not twice). */
export function standingShownStops(session: GuidanceSession | null | undefined): ShownStop[] {
  return standing(session).map((stop) => ({
    guidanceId: (session as GuidanceSession).id,
    tripId: (session as GuidanceSession).tripId ?? null,
    stop: factsOf(stop),
    withdrawnAtMs: null,
  }));
}

/**
 * The withdrawn stops to keep after a change of the vehicle's session at `atMs`: the stops that
 * left the plan (`before`'s stops not in `after`'s) dated `atMs`, added to those kept already, and
 * those withdrawn longer than the match window before `atMs` forgotten. The stops of the plan are
 * the session's; a stop back in the plan is no longer withdrawn.
 */
export function shownStopsAfter(
  shown: readonly ShownStop[],
  before: GuidanceSession | null | undefined,
  after: GuidanceSession | null | undefined,
  atMs: number,
): ShownStop[] {
  const nowIds = new Set(standing(after).map((stop) => stop.id));
  const left = standingShownStops(before)
    .filter((entry) => !nowIds.has(entry.stop.id))
    .map((entry) => ({ ...entry, withdrawnAtMs: atMs }));
  const leftIds = new Set(left.map((entry) => entry.stop.id));
  const kept = shown.filter(
    (entry) =>
      !nowIds.has(entry.stop.id) &&
      !leftIds.has(entry.stop.id) &&
      entry.withdrawnAtMs !== null &&
      isRecent(entry, atMs),
  );
  // The newest first: a bound drops the stops withdrawn longest ago.
  return [...left, ...kept]
    .sort((a, b) => (b.withdrawnAtMs ?? 0) - (a.withdrawnAtMs ?? 0))
    .slice(0, MAX_SHOWN_STOPS);
}

/**
 * What the worker watches and matches a fill against at `atMs`: the session's stops, and the
 * withdrawn stops a fill would still match.
 */
export function watchedShownStops(
  shown: readonly ShownStop[],
  session: GuidanceSession | null,
  atMs: number,
): ShownStop[] {
  const current = standingShownStops(session);
  const inPlan = new Set(current.map((entry) => entry.stop.id));
  return [...current, ...shown.filter((entry) => !inPlan.has(entry.stop.id) && isRecent(entry, atMs))];
}

/**
 * The shown stop a detected fill was made at: within the match radius of its station and in the
 * match window of the fill's own time (the breadcrumbs' `recorded_at`); the nearest of several.
 */
export function matchShownStop(
  shown: readonly ShownStop[],
  fill: { latitude: number; longitude: number; endedAtMs: number },
): ShownStop | null {
  let best: { entry: ShownStop; miles: number } | null = null;
  for (const entry of shown) {
    const window = { recommendedAtMs: entry.stop.recommendedAtMs, withdrawnAtMs: entry.withdrawnAtMs };
    if (!inMatchWindow(window, fill.endedAtMs)) continue;
    const miles = haversineMiles(entry.stop, fill);
    if (miles > FUELING_POLICY.matchRadiusMiles) continue;
    if (!best || miles < best.miles) best = { entry, miles };
  }
  return best?.entry ?? null;
}

/** The trip fuel stop a shown stop carried out, when its session followed a trip. */
export function shownTripStop(entry: ShownStop): TripStopRef | null {
  return entry.tripId && entry.stop.tripStopId
    ? { tripId: entry.tripId, stopId: entry.stop.tripStopId }
    : null;
}
