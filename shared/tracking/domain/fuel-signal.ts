import { DETECTION_POLICY } from './policy.ts';
import type { LevelReading } from './types.ts';

/** Median (mean of the middle two for an even count); null for no values. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] as number) + upper) / 2;
}

/** The readings with one more appended, keeping only the latest `keep` (state stays bounded). */
export function appendReading(
  readings: readonly LevelReading[],
  reading: LevelReading,
  keep: number,
): LevelReading[] {
  return [...readings, reading].slice(-keep);
}

/** The median of the readings' levels: robust to the few sloshing samples among them. */
export function medianLevel(readings: readonly LevelReading[]): number | null {
  return median(readings.map((reading) => reading.percent));
}

/**
 * Fuel-low hysteresis on the smoothed level: fires when an armed alarm sees the level below the
 * threshold, re-arms only above the higher re-arm level, so slosh around the threshold fires once.
 */
export function fuelLowStep(armed: boolean, smoothedPercent: number): { armed: boolean; fired: boolean } {
  if (armed && smoothedPercent < DETECTION_POLICY.fuelLowThresholdPercent)
    return { armed: false, fired: true };
  if (!armed && smoothedPercent > DETECTION_POLICY.fuelLowRearmPercent) return { armed: true, fired: false };
  return { armed, fired: false };
}
