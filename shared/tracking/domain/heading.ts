import { bearingDegrees, haversineMiles } from '#shared/kernel/distance.ts';
import { DETECTION_POLICY } from './policy.ts';

/** A breadcrumb as the heading reads it; `headingDegrees` only where the provider reported one. */
export interface HeadingFix {
  latitude: number;
  longitude: number;
  recordedAtMs: number;
  speedKmh: number | null;
  headingDegrees?: number | null;
}

/**
 * How a direction of travel is read from breadcrumbs without a reported heading. Marked pure like
 * the detection policy, so a bundle that never reads it drops it.
 */
export const HEADING_POLICY = /* @__PURE__ */ Object.freeze({
  /**
   * The two breadcrumbs a bearing is taken between are at least 0.25 mi apart: GPS jitter (tens of
   * metres) then turns it by a few degrees at most, and at a 1-minute cadence any truck above
   * 15 mph has moved that far since the breadcrumb before.
   */
  minBaseMiles: 0.25,
  /**
   * And the earlier one is at most 15 minutes older: time enough for slow traffic to cover the base,
   * not so much that the bearing spans an exit, a stop and a turn back.
   */
  maxLookbackMinutes: 15,
} as const);

/**
 * The truck's direction of travel at its latest breadcrumb, degrees clockwise from true north
 * (0 ≤ heading < 360), or null when it has stood still for the whole lookback or its direction
 * cannot be told:
 * - the provider's `heading_degrees` on the latest breadcrumb when it reported one and the truck is
 *   moving there;
 * - else the trail bearing: to the latest breadcrumb from the newest earlier one (by `recorded_at`)
 *   at least {@link HEADING_POLICY.minBaseMiles} away and at most
 *   {@link HEADING_POLICY.maxLookbackMinutes} older. Also when the latest breadcrumb is slow (its
 *   speed at most the stationary speed, 5 mph, or, without a speed, within 0.1 mi of the breadcrumb
 *   before: the detectors' rules): a truck crawling in a jam is still on its way, and the trail says
 *   which way, where a reported heading at a crawl is noise. A truck that stood for the whole
 *   lookback has no breadcrumb that far away, so it has none;
 * - else null.
 * Judged on `recorded_at` alone, so breadcrumbs delivered late or out of order give the same heading.
 *
 * @example
 * travelHeading(latest, recentBreadcrumbs); // 352.6, or null for a parked truck
 */
export function travelHeading(latest: HeadingFix, trail: readonly HeadingFix[]): number | null {
  const earlier = trail
    .filter((fix) => fix.recordedAtMs < latest.recordedAtMs && isPlaced(fix))
    .sort((a, b) => b.recordedAtMs - a.recordedAtMs);
  const reported = latest.headingDegrees;
  if (!isSlow(latest, earlier[0] ?? null) && typeof reported === 'number' && Number.isFinite(reported)) {
    return ((reported % 360) + 360) % 360;
  }
  const oldestMs = latest.recordedAtMs - HEADING_POLICY.maxLookbackMinutes * 60_000;
  for (const fix of earlier) {
    if (fix.recordedAtMs < oldestMs) break;
    if (haversineMiles(fix, latest) >= HEADING_POLICY.minBaseMiles) return bearingDegrees(fix, latest);
  }
  return null;
}

function isSlow(latest: HeadingFix, previous: HeadingFix | null): boolean {
  if (typeof latest.speedKmh === 'number' && Number.isFinite(latest.speedKmh)) {
    return latest.speedKmh <= DETECTION_POLICY.stationaryMaxSpeedKmh;
  }
  return previous !== null && haversineMiles(previous, latest) <= DETECTION_POLICY.stationaryMaxStepMiles;
}

const isPlaced = (fix: HeadingFix) =>
  Number.isFinite(fix.recordedAtMs) && Number.isFinite(fix.latitude) && Number.isFinite(fix.longitude);
