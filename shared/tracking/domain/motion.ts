import { haversineMiles } from '#shared/kernel/distance.ts';
import { DETECTION_POLICY } from './policy.ts';
import type { TrackerFix } from './types.ts';

/**
 * A copy holding only the tracker's fields (callers may pass richer position records, which
 * must not leak into stored state), with unusable sensor values turned into "missing".
 */
export function normalizeFix(fix: TrackerFix): TrackerFix {
  const level = fix.fuelLevelPercent;
  const speed = fix.speedKmh;
  return {
    recordedAtMs: fix.recordedAtMs,
    latitude: fix.latitude,
    longitude: fix.longitude,
    fuelLevelPercent:
      typeof level === 'number' && Number.isFinite(level) ? Math.min(100, Math.max(0, level)) : null,
    speedKmh: typeof speed === 'number' && Number.isFinite(speed) ? speed : null,
  };
}

/** A fix the detectors can place in time and space; anything else is skipped. */
export function isUsableFix(fix: TrackerFix): boolean {
  return Number.isFinite(fix.recordedAtMs) && Number.isFinite(fix.latitude) && Number.isFinite(fix.longitude);
}

/**
 * Stationary by the reported speed when there is one, else by the distance since the previous
 * fix. The very first fix without a speed has nothing to compare with and counts as moving, so
 * nothing starts from a guess.
 */
export function isStationary(fix: TrackerFix, previous: TrackerFix | null): boolean {
  if (fix.speedKmh !== null) return fix.speedKmh <= DETECTION_POLICY.stationaryMaxSpeedKmh;
  if (previous === null) return false;
  return haversineMiles(previous, fix) <= DETECTION_POLICY.stationaryMaxStepMiles;
}
