import { haversineMiles } from '#shared/kernel/distance.ts';
import { roundToTenth } from '#shared/kernel/rounding.ts';
import { appendReading, medianLevel } from './fuel-signal.ts';
import { DETECTION_POLICY } from './policy.ts';
import type { TrackerState } from './types.ts';

/**
 * Where a fuel level comes from: the tank sensor at the latest breadcrumb (`reported`), the last
 * reported level less the fuel burned on the road miles since (`projected`), or, for a truck that
 * never reported one, the fleet's `assumed_departure_fuel_percent` (`assumed`).
 */
export const FUEL_LEVEL_SOURCES = ['reported', 'projected', 'assumed'] as const;
export type FuelLevelSource = (typeof FUEL_LEVEL_SOURCES)[number];

/** The bounds of the rule, quoted by docs/api-guide.md ("The fuel level a plan works from"). */
export const FUEL_LEVEL_POLICY = /* @__PURE__ */ Object.freeze({
  /**
   * A projection from a report older than 12 hours of recorded_at or more than 400 road miles back
   * is no longer trusted: the truck has likely filled since (a haul fills every 600–1,000 miles), so
   * the level falls back to the assumption.
   */
  projectionMaxHours: 12,
  projectionMaxRoadMiles: 400,
  /**
   * A level reported within 15 minutes and 15 road miles still gives gallons to buy (projected
   * forward): a sensor that reports on every few breadcrumbs would otherwise make gallons appear
   * and vanish on the driver's screen from one breadcrumb to the next.
   */
  gallonsReportMaxMinutes: 15,
  gallonsReportMaxRoadMiles: 15,
  /**
   * A departure from a fuel station after at least 8 minutes there counts as a fill for a truck
   * whose level is not reported: fuelling a truck takes longer, a restroom break or a red light
   * at the exit does not.
   */
  fillDwellMinutes: 8,
});

/** The level a truck that never reported one is taken to have, and from where on its drive. */
export interface FuelAssumption {
  percent: number;
  /** When the assumption applies from: the moment answered for when there is no breadcrumb at all. */
  atMs: number;
  /**
   * The vehicle's odometer (great-circle miles, {@link FuelLevel.odometerMiles}) where the
   * assumption was made: the fuel for the miles since is burned from it. Null: made at the
   * position asked about (a trip or a route planned now), so nothing is burned.
   */
  odometerMiles: number | null;
  /**
   * Set when the assumption was re-anchored on a fill ({@link assumptionAfterFill}): a level
   * reported before this moment is superseded by it, one reported later replaces it.
   */
  filledAtMs?: number;
}

/**
 * The assumption after a fill known for the vehicle, anchored where the fill happened: a reported
 * fueling's gallons on top of the level before it (capped at a full tank), or, for a departure
 * from a fuel station after a fill-long dwell, the fleet's assumed departure level.
 */
export function assumptionAfterFill(
  fill:
    | { kind: 'gallons'; levelBeforePercent: number; gallons: number; tankGallons: number }
    | { kind: 'departure'; assumedPercent: number },
  at: { atMs: number; odometerMiles: number | null },
): FuelAssumption {
  const percent =
    fill.kind === 'departure'
      ? fill.assumedPercent
      : Math.min(100, fill.levelBeforePercent + (fill.gallons / fill.tankGallons) * 100);
  return {
    percent: roundToTenth(percent),
    atMs: at.atMs,
    odometerMiles: at.odometerMiles,
    filledAtMs: at.atMs,
  };
}

/** Whether a level is close enough to a report to give gallons to buy ({@link FUEL_LEVEL_POLICY}). */
export function givesGallons(level: {
  source: FuelLevelSource | 'estimated';
  reportedAtMs: number | null;
  asOfMs?: number;
  milesSince?: number;
}): boolean {
  if (level.source === 'reported') return true;
  if (level.source !== 'projected' || level.reportedAtMs === null) return false;
  if (level.asOfMs === undefined || level.milesSince === undefined) return false;
  return (
    level.asOfMs - level.reportedAtMs <= FUEL_LEVEL_POLICY.gallonsReportMaxMinutes * 60_000 &&
    level.milesSince <= FUEL_LEVEL_POLICY.gallonsReportMaxRoadMiles
  );
}

/** A breadcrumb as the level reads it. */
export interface LevelBreadcrumb {
  recordedAtMs: number;
  latitude: number;
  longitude: number;
  fuelLevelPercent: number | null;
}

export interface FuelLevel {
  /** Percent of the tank, to 0.1, never below 0. */
  percent: number;
  source: FuelLevelSource;
  /** The moment the level describes: the latest breadcrumb's recorded_at (the assumption's time without any). */
  asOfMs: number;
  /** When the reported level it comes from was recorded; null when assumed. */
  reportedAtMs: number | null;
  /** Road miles since the report or the assumption (great-circle miles × the road factor), to 0.1. */
  milesSince: number;
  /** The vehicle's odometer at `asOfMs`: where an assumption made now is anchored. */
  odometerMiles: number;
}

/**
 * The tank level at the vehicle's latest breadcrumb, the one rule trips, routes and guidance share:
 * the smoothed reported level when that breadcrumb carried one; else the last reported level
 * projected forward by the road miles driven since at the vehicle's mpg, while the report is within
 * {@link FUEL_LEVEL_POLICY}'s age and miles and not older than a fill the assumption was anchored
 * on; else the assumption, less the fuel for the miles driven since it was anchored. Reads the
 * detection state (what the worker consumed) and the breadcrumbs it has not consumed yet (any
 * order; those at or before its last fix are ignored). Null when a projection is needed and the
 * tank size or mpg is unknown.
 */
export function fuelLevelNow(
  tracker: Pick<TrackerState, 'lastFix' | 'lastReport' | 'recentLevels' | 'odometerMiles'>,
  unconsumed: readonly LevelBreadcrumb[],
  vehicle: { tankGallons: number | null; mpg: number | null },
  assumption: FuelAssumption,
): FuelLevel | null {
  let last: LevelBreadcrumb | null = tracker.lastFix;
  let odometer = tracker.odometerMiles ?? 0;
  let levels = tracker.recentLevels;
  let report = tracker.lastReport && {
    percent: tracker.lastReport.percent,
    atMs: tracker.lastReport.atMs,
    miles: tracker.lastReport.greatCircleMilesSince,
  };
  const fresh = unconsumed
    .filter((crumb) => last === null || crumb.recordedAtMs > last.recordedAtMs)
    .sort((a, b) => a.recordedAtMs - b.recordedAtMs);
  for (const crumb of fresh) {
    const step = last === null ? 0 : haversineMiles(last, crumb);
    odometer += step;
    if (crumb.fuelLevelPercent !== null) {
      const reading = { atMs: crumb.recordedAtMs, percent: crumb.fuelLevelPercent };
      levels = appendReading(levels, reading, DETECTION_POLICY.smoothingReadings);
      report = { percent: medianLevel(levels) ?? reading.percent, atMs: crumb.recordedAtMs, miles: 0 };
    } else if (report !== null) {
      report = { ...report, miles: report.miles + step };
    }
    last = crumb;
  }
  const asOfMs = last?.recordedAtMs ?? assumption.atMs;
  const burned = (greatCircleMiles: number) => {
    const { tankGallons, mpg } = vehicle;
    const roadMiles = greatCircleMiles * DETECTION_POLICY.roadFactor;
    if (roadMiles === 0) return { roadMiles, percent: 0 };
    if (tankGallons === null || mpg === null || !(tankGallons > 0) || !(mpg > 0)) return null;
    return { roadMiles, percent: (roadMiles / mpg / tankGallons) * 100 };
  };

  // A fill the assumption was re-anchored on supersedes the reports before it, and the readings
  // before it leave the median of a report after it.
  const filledAtMs = assumption.filledAtMs;
  if (report !== null && filledAtMs !== undefined) {
    const sinceFill = levels.filter((reading) => reading.atMs >= filledAtMs);
    report =
      report.atMs < filledAtMs ? null : { ...report, percent: medianLevel(sinceFill) ?? report.percent };
  }
  if (report !== null) {
    if (report.atMs === asOfMs) {
      return {
        percent: roundToTenth(report.percent),
        source: 'reported',
        asOfMs,
        reportedAtMs: report.atMs,
        milesSince: 0,
        odometerMiles: odometer,
      };
    }
    const burn = burned(report.miles);
    if (burn === null) return null;
    const stale =
      asOfMs - report.atMs > FUEL_LEVEL_POLICY.projectionMaxHours * 3_600_000 ||
      burn.roadMiles > FUEL_LEVEL_POLICY.projectionMaxRoadMiles;
    if (!stale)
      return {
        percent: roundToTenth(Math.max(0, report.percent - burn.percent)),
        source: 'projected',
        asOfMs,
        reportedAtMs: report.atMs,
        milesSince: roundToTenth(burn.roadMiles),
        odometerMiles: odometer,
      };
  }
  const burn = burned(
    assumption.odometerMiles === null ? 0 : Math.max(0, odometer - assumption.odometerMiles),
  );
  if (burn === null) return null;
  return {
    percent: roundToTenth(Math.max(0, assumption.percent - burn.percent)),
    source: 'assumed',
    asOfMs,
    reportedAtMs: null,
    milesSince: roundToTenth(burn.roadMiles),
    odometerMiles: odometer,
  };
}
