import { haversineMiles } from '../../geo/distance.ts';
import type { FuelTaxTreatment } from '../fuel-tax/treatment.ts';
import { recommendedEffectivePrice } from './fill-pricing.ts';
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

/**
 * Whether the recommendation stood at that moment: from a little before it was made until a
 * little after it was withdrawn (or for as long as it still stands). What a fill elsewhere passed over.
 */
export function stoodAt(stop: RecommendedStop, atMs: number): boolean {
  const from = stop.recommendedAtMs - FUELING_POLICY.matchEarlyMinutes * 60_000;
  const until =
    stop.withdrawnAtMs === null
      ? Infinity
      : stop.withdrawnAtMs + FUELING_POLICY.passedOverGraceMinutes * 60_000;
  return atMs >= from && atMs <= until;
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
  return 'not_at_recommended_station';
}

/**
 * The recommendation a fill made elsewhere passed over: of the vehicle's recommendations standing
 * at the fill's time, the one with the lowest effective price on the fill's basis (what the
 * driver could have paid). A fill whose place is unknown passed over nothing: it may have been
 * made at the stop.
 */
export function passedOverRecommendation<T extends RecommendedStop>(
  fill: FillPlace,
  stops: readonly T[],
  treatment: FuelTaxTreatment,
): T | null {
  if (!hasPlace(fill)) return null;
  let best: T | null = null;
  for (const stop of stops) {
    if (stop.vehicleId !== fill.vehicleId || !stoodAt(stop, fill.fueledAtMs)) continue;
    if (!best || recommendedEffectivePrice(stop, treatment) < recommendedEffectivePrice(best, treatment)) {
      best = stop;
    }
  }
  return best;
}

/**
 * The advice a fill made elsewhere did not follow: the stop the driver was heading to (first in
 * the plan when shown), standing at the fill's time, not yet counted in the report (a stop passed
 * or stopped at within the approach radius was counted when withdrawn) and not followed. Counted
 * once, as recommended and not followed; a later fill there still counts as followed. A stop
 * withdrawn before the fill while far ahead was a plan that changed, not advice passed over.
 */
export function unfollowedRecommendation<T extends RecommendedStop & { countedDay: string | null }>(
  fill: FillPlace,
  stops: readonly T[],
): T | null {
  if (!hasPlace(fill)) return null;
  const candidates = stops.filter(
    (stop) =>
      stop.vehicleId === fill.vehicleId &&
      stop.sequence === 0 &&
      stop.countedDay === null &&
      stop.followedFuelingId === null &&
      stop.recommendedAtMs - FUELING_POLICY.matchEarlyMinutes * 60_000 <= fill.fueledAtMs &&
      (stop.withdrawnAtMs === null || stop.withdrawnAtMs >= fill.fueledAtMs),
  );
  candidates.sort((a, b) => b.recommendedAtMs - a.recommendedAtMs);
  return candidates[0] ?? null;
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
