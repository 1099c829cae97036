import { haversineMiles } from '#shared/kernel/distance.ts';
import type { UnmatchedReason } from './match-window.ts';
import { FUELING_POLICY } from './policy.ts';
import type { RecommendedStop } from './recommendations.ts';

/** Where and when a fill happened, as matching sees it (a position may be unknown on a card record). */
export interface FillPlace {
  vehicleId: string;
  fueledAtMs: number;
  stationId: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface RecommendationMatch {
  stop: RecommendedStop;
  /** From the fill's position to the station; null when the fill has no position at all. */
  distanceMiles: number | null;
}

/**
 * Whether a recommendation counts for a fill at `atMs`: shown no later than a little after the fill
 * (clock skew), and standing at some moment of the match window before it — still standing, or
 * withdrawn at most the window before the fill. Withdrawal does not undo what the driver was shown.
 */
export function inMatchWindow(
  stop: Pick<RecommendedStop, 'recommendedAtMs' | 'withdrawnAtMs'>,
  atMs: number,
): boolean {
  const shownBy = stop.recommendedAtMs - FUELING_POLICY.matchEarlyMinutes * 60_000;
  const standingSince = atMs - FUELING_POLICY.matchWindowHours * 3_600_000;
  return atMs >= shownBy && (stop.withdrawnAtMs === null || stop.withdrawnAtMs >= standingSince);
}

const distanceTo = (stop: RecommendedStop, fill: FillPlace): number | null =>
  fill.latitude === null || fill.longitude === null
    ? null
    : haversineMiles(stop, { latitude: fill.latitude, longitude: fill.longitude });

/**
 * Whether the fill was at the stop's station: the station it names, when it names one (a pump at
 * the station next door is not the recommended one, however near); else within the match radius
 * of its position.
 */
const atStation = (stop: RecommendedStop, fill: FillPlace): { distanceMiles: number | null } | null => {
  const distanceMiles = distanceTo(stop, fill);
  if (fill.stationId !== null) return fill.stationId === stop.stationId ? { distanceMiles } : null;
  return distanceMiles !== null && distanceMiles <= FUELING_POLICY.matchRadiusMiles
    ? { distanceMiles }
    : null;
};

/**
 * The recommended stop a fill was made at: the vehicle's, within the match window of the fill's
 * time, at the station the fill names or, for a fill naming none, within the match radius of its
 * position. Among several, the nearest, then the latest recommended.
 */
export function matchRecommendation(
  fill: FillPlace,
  stops: readonly RecommendedStop[],
): RecommendationMatch | null {
  const candidates: RecommendationMatch[] = [];
  for (const stop of stops) {
    if (stop.vehicleId !== fill.vehicleId || !inMatchWindow(stop, fill.fueledAtMs)) continue;
    const at = atStation(stop, fill);
    if (at) candidates.push({ stop, ...at });
  }
  candidates.sort(
    (a, b) =>
      (a.distanceMiles ?? 0) - (b.distanceMiles ?? 0) || b.stop.recommendedAtMs - a.stop.recommendedAtMs,
  );
  return candidates[0] ?? null;
}

/** Why `matchRecommendation` found nothing for the fill among these recommendations (UNMATCHED_REASONS). */
export function unmatchedReason(fill: FillPlace, stops: readonly RecommendedStop[]): UnmatchedReason {
  const own = stops.filter((stop) => stop.vehicleId === fill.vehicleId);
  if (own.some((stop) => atStation(stop, fill) !== null)) return 'outside_window';
  if (!own.some((stop) => inMatchWindow(stop, fill.fueledAtMs))) return 'no_guidance';
  if (fill.stationId === null && (fill.latitude === null || fill.longitude === null)) return 'no_position';
  return onlyFurtherStopsStood(fill, stops) ? 'no_stop_due' : 'not_at_recommended_station';
}

/**
 * When the stop became the one the truck was heading to (the first standing stop of its session);
 * null when it never was. A record without it reads as heading from when it was
 * shown if it was first in the plan then (or its place in the plan is unknown).
 */
export function headingSince(stop: RecommendedStop): number | null {
  if (stop.headingSinceMs !== undefined) return stop.headingSinceMs;
  // Written before the place in the plan was kept too: it may have been the first, judged as such.
  return stop.sequence === 0 || stop.sequence === undefined ? stop.recommendedAtMs : null;
}

/**
 * Whether a fill elsewhere at `atMs` can be judged against the stop: shown by then (a little after,
 * for clock skew), and still standing, or passed at most the grace before (a card's `fueled_at` is
 * the payment, which can come after the truck moved on, and the fill itself can change the plan).
 */
export function standingFor(stop: RecommendedStop, atMs: number): boolean {
  if (atMs < stop.recommendedAtMs - FUELING_POLICY.matchEarlyMinutes * 60_000) return false;
  if (stop.withdrawnAtMs === null || stop.withdrawnAtMs >= atMs) return true;
  return stop.withdrawnAtMs + FUELING_POLICY.passedOverGraceMinutes * 60_000 >= atMs;
}

/**
 * The stop a fill made elsewhere is judged against, for its money (counterfactual, missed saving)
 * and for adherence alike: the stop the truck was heading to at the fill. Of the vehicle's stops
 * standing then (standingFor), the one that most recently became the first of the plan by the
 * fill's time; a stop that became first only just after it (within the clock-skew minutes) when
 * none had before. None when only stops further on stood (no stop was due yet), or when the fill's
 * place is unknown (it may have been made at the stop).
 */
export function headingRecommendation<T extends RecommendedStop>(
  fill: FillPlace,
  stops: readonly T[],
): T | null {
  if (!hasPlace(fill)) return null;
  const skewMs = FUELING_POLICY.matchEarlyMinutes * 60_000;
  let best: { stop: T; since: number } | null = null;
  let soonAfter: { stop: T; since: number } | null = null;
  for (const stop of stops) {
    const since = headingSince(stop);
    if (stop.vehicleId !== fill.vehicleId || since === null || !standingFor(stop, fill.fueledAtMs)) continue;
    if (since <= fill.fueledAtMs) {
      if (!best || since > best.since) best = { stop, since };
    } else if (since - skewMs <= fill.fueledAtMs && (!soonAfter || since < soonAfter.since)) {
      soonAfter = { stop, since };
    }
  }
  return (best ?? soonAfter)?.stop ?? null;
}

/**
 * Whether a fill elsewhere judged against `stop` counts it as advice not followed: not yet counted
 * in the report (a stop passed or stopped at within the approach radius was counted when
 * withdrawn, a stop passed over by an earlier fill then) and not followed. Counted once, as
 * recommended and not followed; a later fill there still counts as followed.
 */
export const countsUnfollowed = (stop: { countedDay: string | null; followedFuelingId: string | null }) =>
  stop.countedDay === null && stop.followedFuelingId === null;

/**
 * Why a fill elsewhere is judged against no stop while some of the vehicle's stood at its time:
 * only stops further on stood, none the truck was heading to yet.
 */
export function onlyFurtherStopsStood(fill: FillPlace, stops: readonly RecommendedStop[]): boolean {
  return (
    hasPlace(fill) &&
    headingRecommendation(fill, stops) === null &&
    stops.some((stop) => stop.vehicleId === fill.vehicleId && standingFor(stop, fill.fueledAtMs))
  );
}

const hasPlace = (fill: FillPlace) =>
  fill.stationId !== null || (fill.latitude !== null && fill.longitude !== null);

/**
 * A reported and a detected fueling are the same fill: one vehicle, at most the merge window apart
 * and the merge radius apart. Without a position on either side (a card record naming no station
 * the catalog knows) the place cannot be compared, so they are not merged.
 */
export function isSameFill(a: FillPlace, b: FillPlace): boolean {
  if (a.vehicleId !== b.vehicleId) return false;
  if (Math.abs(a.fueledAtMs - b.fueledAtMs) > FUELING_POLICY.mergeWindowMinutes * 60_000) return false;
  if (a.latitude === null || a.longitude === null || b.latitude === null || b.longitude === null)
    return false;
  return (
    haversineMiles(
      { latitude: a.latitude, longitude: a.longitude },
      { latitude: b.latitude, longitude: b.longitude },
    ) <= FUELING_POLICY.mergeRadiusMiles
  );
}

/** Of several detected fills that are the same fill as `fill`, the nearest in time. */
export function sameFillOf<T extends FillPlace>(fill: FillPlace, others: readonly T[]): T | null {
  let best: T | null = null;
  for (const other of others) {
    if (!isSameFill(fill, other)) continue;
    if (!best || Math.abs(other.fueledAtMs - fill.fueledAtMs) < Math.abs(best.fueledAtMs - fill.fueledAtMs)) {
      best = other;
    }
  }
  return best;
}
