import { describe, expect, it } from 'vitest';
import {
  assumptionAfterFill,
  FUEL_LEVEL_POLICY,
  type FuelAssumption,
  fuelLevelNow,
  givesGallons,
  type LevelBreadcrumb,
} from '#shared/tracking/domain/fuel-level.ts';
import {
  advanceTracker,
  DETECTION_POLICY,
  type Detection,
  initialTrackerState,
  type TrackerFix,
} from '#shared/tracking/domain/tracker.ts';
import { Breadcrumbs, contextWith, ORIGIN } from './breadcrumbs.ts';

type FuelLow = Extract<Detection, { kind: 'fuel_low' }>;

/** Drives at 60 mph reporting each level for `hold` consecutive fixes. */
function drivingThrough(levels: readonly number[], hold = 3): TrackerFix[] {
  const script = levels.flatMap((level) => Array.from({ length: hold }, () => level));
  return new Breadcrumbs(ORIGIN).drive({
    minutes: script.length,
    speedMph: 60,
    level: (i) => script[i] ?? null,
  }).fixes;
}

function fuelLowsOf(fixes: readonly TrackerFix[]): FuelLow[] {
  return advanceTracker(initialTrackerState(), fixes, contextWith()).detections.filter(
    (d): d is FuelLow => d.kind === 'fuel_low',
  );
}

describe('fuel low', () => {
  it('fires at 19, not again at 18, re-arms only above 30 and fires again at 19', () => {
    // Arrange: each level held for three fixes, so the 5-reading median reaches it on the third.
    const fixes = drivingThrough([35, 25, 19, 21, 18, 25, 31, 19]);

    // Act
    const lows = fuelLowsOf(fixes);

    // Assess: from the third 19 (fix 8) and the third 19 after the 31s (fix 23).
    expect(lows).toEqual(
      [8, 23].map((index) => ({
        kind: 'fuel_low',
        atMs: fixes[index]?.recordedAtMs,
        fuelLevelPercent: 19,
        thresholdPercent: DETECTION_POLICY.fuelLowThresholdPercent,
        latitude: fixes[index]?.latitude,
        longitude: fixes[index]?.longitude,
      })),
    );
  });

  it.each([
    [25, 0],
    [30, 0],
    [31, 1],
  ])('after firing, a rise to %i and a drop back to 18 fires %i more time(s)', (rise, more) => {
    // Arrange
    const fixes = drivingThrough([35, 19, rise, 18]);

    // Act / Assess
    expect(fuelLowsOf(fixes)).toHaveLength(1 + more);
  });

  it('fires once when the very first reading is already low', () => {
    // Arrange
    const fixes = drivingThrough([12, 11, 10]);

    // Act
    const lows = fuelLowsOf(fixes);

    // Assess
    expect(lows).toEqual([expect.objectContaining({ atMs: fixes[0]?.recordedAtMs, fuelLevelPercent: 12 })]);
  });

  it('needs the level below the threshold: 20 % itself does not fire', () => {
    // Act / Assess
    expect(fuelLowsOf(drivingThrough([25, 20, 20]))).toEqual([]);
  });

  it('ignores a single sloshing reading below the threshold', () => {
    // Arrange
    const fixes = drivingThrough([24, 24, 17, 24, 24, 23, 16, 22], 1);

    // Act / Assess
    expect(fuelLowsOf(fixes)).toEqual([]);
  });

  it('is not fired by an estimate: only reported levels count', () => {
    // Arrange: 22 % reported, then 200 mi without readings (the estimate would drop far below 20 %).
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 5, speedMph: 60, level: 22 })
      .drive({ minutes: 200, speedMph: 60, everyMinutes: 5 });
    const { state, detections } = advanceTracker(initialTrackerState(), route.fixes, contextWith());

    // Act / Assess
    expect(fuelLevelNow(state, [], contextWith(), FULL_NOW)?.percent).toBeLessThan(
      DETECTION_POLICY.fuelLowThresholdPercent,
    );
    expect(detections).toEqual([]);
  });
});

/** The fleet default, made at the position asked about: nothing burned from it. */
const FULL_NOW: FuelAssumption = { percent: 100, atMs: 0, odometerMiles: null };

describe('fuelLevelNow', () => {
  const truck = { tankGallons: 150, mpg: 6 };
  const levelOf = (state: Parameters<typeof fuelLevelNow>[0], unconsumed: LevelBreadcrumb[] = []) =>
    fuelLevelNow(state, unconsumed, truck, FULL_NOW);

  it('is the reported level when the latest fix carried one', () => {
    // Arrange
    const route = new Breadcrumbs(ORIGIN).drive({ minutes: 5, speedMph: 60, level: 64 });
    const { state } = advanceTracker(initialTrackerState(), route.fixes, contextWith());
    const lastAt = route.fixes.at(-1)?.recordedAtMs;

    // Act / Assess
    expect(levelOf(state)).toEqual({
      percent: 64,
      source: 'reported',
      asOfMs: lastAt,
      reportedAtMs: lastAt,
      milesSince: 0,
      odometerMiles: state.odometerMiles,
    });
  });

  it('reports the smoothed level, not the latest raw reading', () => {
    // Arrange: a sloshing last reading.
    const route = new Breadcrumbs(ORIGIN).drive({
      minutes: 5,
      speedMph: 60,
      level: (i) => [60, 61, 59, 60, 47][i] ?? null,
    });
    const { state } = advanceTracker(initialTrackerState(), route.fixes, contextWith());

    // Act / Assess
    expect(levelOf(state)).toMatchObject({ percent: 60, source: 'reported' });
  });

  it('projects the last reading forward by the road miles driven since', () => {
    // Arrange: 50 % reported while parked, then 60 great-circle miles north without readings.
    const route = new Breadcrumbs(ORIGIN)
      .park({ minutes: 1, level: 50 })
      .drive({ minutes: 60, speedMph: 60 });
    const { state } = advanceTracker(initialTrackerState(), route.fixes, contextWith());

    // Act
    const level = levelOf(state);

    // Assess: 60 mi × road factor ÷ 6 mpg = 11 gal of 150 at the 1.1 factor, 7.3 points.
    const roadMiles = 60 * DETECTION_POLICY.roadFactor;
    expect(level).toMatchObject({
      percent: Math.round((50 - (roadMiles / 6 / 150) * 100) * 10) / 10,
      source: 'projected',
      asOfMs: route.fixes.at(-1)?.recordedAtMs,
      reportedAtMs: route.fixes[0]?.recordedAtMs,
      milesSince: Math.round(roadMiles * 10) / 10,
    });
    expect(level?.percent).toBeCloseTo(42.7, 5);
  });

  it('counts miles across batches and never goes below empty', () => {
    // Arrange: 20 % reported, then 300 miles in three batches.
    const route = new Breadcrumbs(ORIGIN)
      .park({ minutes: 1, level: 20 })
      .drive({ minutes: 300, speedMph: 60, everyMinutes: 5 });
    let state = advanceTracker(initialTrackerState(), route.fixes.slice(0, 1), contextWith()).state;
    const levels: (number | undefined)[] = [];

    // Act
    for (const batch of [route.fixes.slice(1, 3), route.fixes.slice(3, 20), route.fixes.slice(20)]) {
      state = advanceTracker(state, batch, contextWith()).state;
      levels.push(levelOf(state)?.percent);
    }

    // Assess: 10 mi (11 road miles, 1.8 gal, 1.2 points), 95 mi (104.5, 17.4 gal, 11.6 points), then empty.
    expect(levels).toEqual([18.8, 8.4, 0]);
  });

  it('projects to a latest breadcrumb without a level that detection has not consumed yet', () => {
    // Arrange: the worker consumed 30 minutes with 40 %; ingest has stored 30 more without a level.
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 30, speedMph: 60, level: 40 })
      .drive({ minutes: 30, speedMph: 60 });
    const consumed = advanceTracker(initialTrackerState(), route.fixes.slice(0, 30), contextWith()).state;
    const all = advanceTracker(initialTrackerState(), route.fixes, contextWith()).state;

    // Act: only the newest of the unconsumed ones is passed (the latest position) …
    const fromLatest = levelOf(consumed, route.fixes.slice(-1));
    // … and all of them, out of order.
    const fromAll = levelOf(consumed, [...route.fixes.slice(30)].reverse());

    // Assess: the same as once the worker has consumed them (a straight line, on a straight drive).
    expect(fromAll).toEqual(levelOf(all));
    expect(fromLatest).toMatchObject({ source: 'projected', asOfMs: route.fixes.at(-1)?.recordedAtMs });
    expect(fromLatest?.percent).toBeCloseTo(levelOf(all)?.percent ?? Number.NaN, 0);
    expect(levelOf(all)).toMatchObject({ source: 'projected', reportedAtMs: route.fixes[29]?.recordedAtMs });
  });

  it('reads an unconsumed breadcrumb with a level as reported, smoothed with the consumed readings', () => {
    // Arrange
    const route = new Breadcrumbs(ORIGIN).drive({
      minutes: 5,
      speedMph: 60,
      level: (i) => [60, 61, 59, 60, 47][i] ?? null,
    });
    const consumed = advanceTracker(initialTrackerState(), route.fixes.slice(0, 4), contextWith()).state;

    // Act / Assess
    expect(levelOf(consumed, route.fixes.slice(4))).toMatchObject({
      percent: 60,
      source: 'reported',
      asOfMs: route.fixes[4]?.recordedAtMs,
    });
  });

  it('assumes the fleet level for a truck that never reported one, at its latest breadcrumb', () => {
    // Arrange
    const route = new Breadcrumbs(ORIGIN).drive({ minutes: 20, speedMph: 60 });
    const { state } = advanceTracker(initialTrackerState(), route.fixes, contextWith());

    // Act
    const level = fuelLevelNow(state, [], truck, { percent: 85, atMs: 0, odometerMiles: null });

    // Assess
    expect(level).toEqual({
      percent: 85,
      source: 'assumed',
      asOfMs: route.fixes.at(-1)?.recordedAtMs,
      reportedAtMs: null,
      milesSince: 0,
      odometerMiles: state.odometerMiles,
    });
    expect(state.odometerMiles).toBeCloseTo(19, 5);
  });

  it('burns the fuel for the miles driven since an anchored assumption', () => {
    // Arrange: anchored after 10 miles, then 60 more miles.
    const route = new Breadcrumbs(ORIGIN).drive({ minutes: 70, speedMph: 60 });
    const atAnchor = advanceTracker(initialTrackerState(), route.fixes.slice(0, 11), contextWith()).state;
    const later = advanceTracker(atAnchor, route.fixes.slice(11), contextWith()).state;
    const anchored = { percent: 100, atMs: 0, odometerMiles: atAnchor.odometerMiles ?? 0 };

    // Act
    const level = fuelLevelNow(later, [], truck, anchored);

    // Assess: 59 mi × road factor ÷ 6 mpg of 150 gal.
    const roadMiles = 59 * DETECTION_POLICY.roadFactor;
    expect(level).toMatchObject({ source: 'assumed', milesSince: Math.round(roadMiles * 10) / 10 });
    expect(level?.percent).toBeCloseTo(100 - (roadMiles / 6 / 150) * 100, 0);
  });

  it("assumes at the assumption's time when there is no breadcrumb at all", () => {
    // Act / Assess
    expect(
      fuelLevelNow(initialTrackerState(), [], truck, { percent: 70, atMs: 1234, odometerMiles: null }),
    ).toEqual({
      percent: 70,
      source: 'assumed',
      asOfMs: 1234,
      reportedAtMs: null,
      milesSince: 0,
      odometerMiles: 0,
    });
  });

  it('is null only when fuel must be burned without tank size or mpg', () => {
    // Arrange
    const readingThenNone = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 1, speedMph: 60, level: 50 })
      .drive({ minutes: 5, speedMph: 60 }).fixes;
    const afterReading = advanceTracker(initialTrackerState(), readingThenNone, contextWith()).state;
    const reading = advanceTracker(initialTrackerState(), readingThenNone.slice(0, 1), contextWith()).state;
    const noTank = { tankGallons: null, mpg: 6 };

    // Act / Assess
    expect(fuelLevelNow(afterReading, [], noTank, FULL_NOW)).toBeNull();
    expect(fuelLevelNow(afterReading, [], { tankGallons: 150, mpg: null }, FULL_NOW)).toBeNull();
    expect(fuelLevelNow(reading, [], noTank, FULL_NOW)).toMatchObject({ source: 'reported', percent: 50 });
    expect(fuelLevelNow(initialTrackerState(), [], noTank, FULL_NOW)).toMatchObject({ source: 'assumed' });
    expect(levelOf(afterReading)).toMatchObject({ source: 'projected', milesSince: 5.5 });
  });

  it('falls back to the assumption once the report is more than the published road miles back', () => {
    // Arrange: 50 % reported, then 360 and 370 great-circle miles (396 and 407 road miles).
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 1, speedMph: 60, level: 50 })
      .drive({ minutes: 370, speedMph: 60, everyMinutes: 5 });
    const within = advanceTracker(initialTrackerState(), route.fixes.slice(0, 73), contextWith()).state;
    const beyond = advanceTracker(initialTrackerState(), route.fixes.slice(0, 75), contextWith()).state;
    const assumption = { percent: 80, atMs: 0, odometerMiles: null };

    // Act
    const projected = fuelLevelNow(within, [], truck, assumption);
    const fallen = fuelLevelNow(beyond, [], truck, assumption);

    // Assess
    expect(projected).toMatchObject({ source: 'projected' });
    expect(projected?.milesSince).toBeLessThanOrEqual(FUEL_LEVEL_POLICY.projectionMaxRoadMiles);
    expect(fallen).toMatchObject({ source: 'assumed', percent: 80, reportedAtMs: null });
  });

  it('falls back to the assumption once the report is more than the published hours old', () => {
    // Arrange: 50 % reported, parked 12 hours 10 minutes, then 5 miles without a level.
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 1, speedMph: 60, level: 50 })
      .park({ minutes: FUEL_LEVEL_POLICY.projectionMaxHours * 60 + 10, everyMinutes: 30 })
      .drive({ minutes: 5, speedMph: 60 });
    const { state } = advanceTracker(initialTrackerState(), route.fixes, contextWith());
    const early = advanceTracker(initialTrackerState(), route.fixes.slice(0, 3), contextWith()).state;

    // Act / Assess
    expect(fuelLevelNow(early, [], truck, FULL_NOW)).toMatchObject({ source: 'projected', percent: 50 });
    expect(fuelLevelNow(state, [], truck, FULL_NOW)).toMatchObject({ source: 'assumed', percent: 100 });
  });

  it('lets an assumption re-anchored on a fill supersede the reports before it, not those after', () => {
    // Arrange: 20 % reported, 30 miles, a fill re-anchors at 90 %, 30 more miles, then 85 % reported.
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 1, speedMph: 60, level: 20 })
      .drive({ minutes: 30, speedMph: 60 })
      .drive({ minutes: 30, speedMph: 60 })
      .drive({ minutes: 1, speedMph: 60, level: 85 });
    const atFill = advanceTracker(initialTrackerState(), route.fixes.slice(0, 31), contextWith()).state;
    const later = advanceTracker(atFill, route.fixes.slice(31, 61), contextWith()).state;
    const reported = advanceTracker(later, route.fixes.slice(61), contextWith()).state;
    const filled = assumptionAfterFill(
      { kind: 'departure', assumedPercent: 90 },
      { atMs: atFill.processedThroughMs ?? 0, odometerMiles: atFill.odometerMiles ?? 0 },
    );

    // Act
    const afterFill = fuelLevelNow(later, [], truck, filled);
    const afterReport = fuelLevelNow(reported, [], truck, filled);

    // Assess: 30 miles burned from 90 (33 road miles, 5.5 gal, 3.7 points); the new report wins.
    expect(afterFill).toMatchObject({ source: 'assumed', reportedAtMs: null, milesSince: 33 });
    expect(afterFill?.percent).toBeCloseTo(90 - (33 / 6 / 150) * 100, 1);
    expect(afterReport).toMatchObject({ source: 'reported', percent: 85 });
    // Without the fill the old report would still be projected, far below.
    expect(fuelLevelNow(later, [], truck, FULL_NOW)).toMatchObject({ source: 'projected' });
    expect(fuelLevelNow(later, [], truck, FULL_NOW)?.percent).toBeLessThan(20);
  });
});

describe('assumptionAfterFill', () => {
  const at = { atMs: 5_000, odometerMiles: 812.5 };

  it("adds a reported fill's gallons to the level before it, capped at a full tank", () => {
    // Act / Assess: 108 gal of 150 is 72 points.
    expect(
      assumptionAfterFill({ kind: 'gallons', levelBeforePercent: 18, gallons: 108, tankGallons: 150 }, at),
    ).toEqual({ percent: 90, atMs: 5_000, odometerMiles: 812.5, filledAtMs: 5_000 });
    expect(
      assumptionAfterFill({ kind: 'gallons', levelBeforePercent: 60, gallons: 108, tankGallons: 150 }, at)
        .percent,
    ).toBe(100);
  });

  it("anchors a departure after a fill at the fleet's assumed level", () => {
    // Act / Assess
    expect(assumptionAfterFill({ kind: 'departure', assumedPercent: 95 }, at)).toEqual({
      percent: 95,
      ...at,
      filledAtMs: 5_000,
    });
  });
});

describe('givesGallons', () => {
  const minute = 60_000;
  const window = FUEL_LEVEL_POLICY.gallonsReportMaxMinutes;

  it.each([
    ['reported', { source: 'reported', reportedAtMs: 0, asOfMs: 0, milesSince: 0 }, true],
    [
      'projected within the window',
      { source: 'projected', reportedAtMs: 0, asOfMs: window * minute, milesSince: 15 },
      true,
    ],
    [
      'projected past the minutes',
      { source: 'projected', reportedAtMs: 0, asOfMs: (window + 1) * minute, milesSince: 1 },
      false,
    ],
    [
      'projected past the miles',
      { source: 'projected', reportedAtMs: 0, asOfMs: minute, milesSince: 15.1 },
      false,
    ],
    [
      'projected, stored before miles were kept',
      { source: 'projected', reportedAtMs: 0, asOfMs: minute },
      false,
    ],
    ['assumed', { source: 'assumed', reportedAtMs: null, asOfMs: 0, milesSince: 0 }, false],
  ] as const)('%s: %s', (_name, level, expected) => {
    // Act / Assess
    expect(givesGallons(level)).toBe(expected);
  });
});
