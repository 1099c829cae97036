import { haversineMiles } from '../../geo/distance.ts';
import type { TripStopRef } from '../event-payloads.ts';
import { MATCH_WINDOW_HOURS } from '../fuelings/match-window.ts';
import { inMatchWindow } from '../fuelings/matching.ts';
import { FUELING_POLICY } from '../fuelings/policy.ts';
import type { GuidanceSession, GuidanceStop } from '../guidance/session.ts';

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
  stop: GuidanceStop;
  /** When the stop left the plan (the time of the change that dropped it); null while it stands. */
  withdrawnAtMs: number | null;
}

/** Kept at most: a vehicle is shown a few stops in six hours; a bound keeps the item small whatever happens. */
const MAX_SHOWN_STOPS = 12;

const standing = (session: GuidanceSession | null | undefined): readonly GuidanceStop[] =>
  session?.status === 'active' ? session.stops : [];

/**
 * The shown stops after a change of the vehicle's session at `atMs`: the stops now in the plan
 * (their latest facts), those that left it dated `atMs`, and those withdrawn longer than the match
 * window before `atMs` forgotten.
 */
export function shownStopsAfter(
  shown: readonly ShownStop[],
  after: GuidanceSession | null | undefined,
  atMs: number,
): ShownStop[] {
  const now = standing(after);
  const nowIds = new Set(now.map((stop) => stop.id));
  const kept = shown
    .filter((entry) => !nowIds.has(entry.stop.id))
    .map((entry) => (entry.withdrawnAtMs === null ? { ...entry, withdrawnAtMs: atMs } : entry))
    .filter((entry) => entry.withdrawnAtMs === null || isRecent(entry, atMs));
  const current = now.map((stop) => ({
    guidanceId: (after as GuidanceSession).id,
    tripId: (after as GuidanceSession).tripId ?? null,
    stop,
    withdrawnAtMs: null,
  }));
  // The newest first: a bound drops the stops withdrawn longest ago.
  const byRecency = [...kept].sort((a, b) => (b.withdrawnAtMs ?? Infinity) - (a.withdrawnAtMs ?? Infinity));
  return [...current, ...byRecency].slice(0, MAX_SHOWN_STOPS);
}

const isRecent = (entry: ShownStop, atMs: number) =>
  entry.withdrawnAtMs === null || entry.withdrawnAtMs >= atMs - MATCH_WINDOW_HOURS * 3_600_000;

/** The shown stops no longer in the plan that a fill at `atMs` would still match. */
export function withdrawnShownStops(
  shown: readonly ShownStop[],
  session: GuidanceSession | null,
  atMs: number,
): ShownStop[] {
  const inPlan = new Set(standing(session).map((stop) => stop.id));
  return shown.filter(
    (entry) => !inPlan.has(entry.stop.id) && entry.withdrawnAtMs !== null && isRecent(entry, atMs),
  );
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
