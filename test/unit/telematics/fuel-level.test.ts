import { describe, expect, it } from 'vitest';
import {
  advanceTracker,
  DETECTION_POLICY,
  type Detection,
  fuelEstimate,
  initialTrackerState,
  type TrackerFix,
} from '../../../shared/domain/telematics/tracker.ts';
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
    expect(fuelEstimate(state, contextWith())?.percent).toBeLessThan(
      DETECTION_POLICY.fuelLowThresholdPercent,
    );
    expect(detections).toEqual([]);
  });
});

describe('fuelEstimate', () => {
  const truck = { tankGallons: 150, mpg: 6 };

  it('is the reported level when the latest fix carried one', () => {
    // Arrange
    const route = new Breadcrumbs(ORIGIN).drive({ minutes: 5, speedMph: 60, level: 64 });
    const { state } = advanceTracker(initialTrackerState(), route.fixes, contextWith());

    // Act / Assess
    expect(fuelEstimate(state, truck)).toEqual({
      percent: 64,
      source: 'reported',
      reportedAtMs: route.fixes.at(-1)?.recordedAtMs,
      milesSinceReport: 0,
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
    expect(fuelEstimate(state, truck)).toMatchObject({ percent: 60, source: 'reported' });
  });

  it('subtracts the fuel for the miles driven since the last reading', () => {
    // Arrange: 50 % reported while parked, then 60 great-circle miles north without readings.
    const route = new Breadcrumbs(ORIGIN)
      .park({ minutes: 1, level: 50 })
      .drive({ minutes: 60, speedMph: 60 });
    const { state } = advanceTracker(initialTrackerState(), route.fixes, contextWith());

    // Act
    const estimate = fuelEstimate(state, truck);

    // Assess: 60 mi × road factor ÷ 6 mpg = 11 gal of 150 at the 1.1 factor, 7.3 points.
    const roadMiles = 60 * DETECTION_POLICY.roadFactor;
    expect(estimate).toEqual({
      percent: Math.round((50 - (roadMiles / 6 / 150) * 100) * 10) / 10,
      source: 'estimated',
      reportedAtMs: route.fixes[0]?.recordedAtMs,
      milesSinceReport: Math.round(roadMiles * 10) / 10,
    });
    expect(estimate?.percent).toBeCloseTo(42.7, 5);
  });

  it('counts miles across batches and never goes below empty', () => {
    // Arrange: 20 % reported, then 300 miles in three batches.
    const route = new Breadcrumbs(ORIGIN)
      .park({ minutes: 1, level: 20 })
      .drive({ minutes: 300, speedMph: 60, everyMinutes: 5 });
    let state = advanceTracker(initialTrackerState(), route.fixes.slice(0, 1), contextWith()).state;
    const estimates: (number | undefined)[] = [];

    // Act
    for (const batch of [route.fixes.slice(1, 3), route.fixes.slice(3, 20), route.fixes.slice(20)]) {
      state = advanceTracker(state, batch, contextWith()).state;
      estimates.push(fuelEstimate(state, truck)?.percent);
    }

    // Assess: 10 mi (11 road miles, 1.8 gal, 1.2 points), 95 mi (104.5, 17.4 gal, 11.6 points), then empty.
    expect(estimates).toEqual([18.8, 8.4, 0]);
  });

  it('is null before any reading, and when an estimate is needed without tank size or mpg', () => {
    // Arrange
    const noReadings = new Breadcrumbs(ORIGIN).drive({ minutes: 5, speedMph: 60 }).fixes;
    const readingThenNone = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 1, speedMph: 60, level: 50 })
      .drive({ minutes: 5, speedMph: 60 }).fixes;
    const afterReading = advanceTracker(initialTrackerState(), readingThenNone, contextWith()).state;

    // Act / Assess
    expect(fuelEstimate(initialTrackerState(), truck)).toBeNull();
    expect(
      fuelEstimate(advanceTracker(initialTrackerState(), noReadings, contextWith()).state, truck),
    ).toBeNull();
    expect(fuelEstimate(afterReading, { tankGallons: null, mpg: 6 })).toBeNull();
    expect(fuelEstimate(afterReading, { tankGallons: 150, mpg: null })).toBeNull();
    expect(fuelEstimate(afterReading, truck)).toMatchObject({ source: 'estimated', milesSinceReport: 5.5 });
  });
});
