import { roundToTenth } from '../rounding.ts';
import { DETECTION_POLICY } from './policy.ts';
import type { LevelReading, TrackerContext, TrackerState } from './types.ts';

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

export interface FuelEstimate {
  percent: number;
  source: 'reported' | 'estimated';
  reportedAtMs: number;
  /** Estimated road miles since the report: great-circle miles between fixes × the road factor. */
  milesSinceReport: number;
}

/**
 * The tank level now: the smoothed reported level when the latest fix carried one, else that
 * level less the fuel the miles since would burn (floored at 0). Null with no report ever, or
 * when an estimate is needed and the tank size or mpg is unknown.
 */
export function fuelEstimate(
  state: Pick<TrackerState, 'lastReport' | 'lastFix'>,
  vehicle: Pick<TrackerContext, 'tankGallons' | 'mpg'>,
): FuelEstimate | null {
  const report = state.lastReport;
  if (report === null || state.lastFix === null) return null;
  if (report.atMs === state.lastFix.recordedAtMs) {
    return {
      percent: roundToTenth(report.percent),
      source: 'reported',
      reportedAtMs: report.atMs,
      milesSinceReport: 0,
    };
  }
  const { tankGallons, mpg } = vehicle;
  if (tankGallons === null || mpg === null || !(tankGallons > 0) || !(mpg > 0)) return null;
  const roadMiles = report.greatCircleMilesSince * DETECTION_POLICY.roadFactor;
  const burnedPercent = (roadMiles / mpg / tankGallons) * 100;
  return {
    percent: roundToTenth(Math.max(0, report.percent - burnedPercent)),
    source: 'estimated',
    reportedAtMs: report.atMs,
    milesSinceReport: roundToTenth(roadMiles),
  };
}
