import { describe, expect, it } from 'vitest';
import {
  advanceTracker,
  type Detection,
  initialTrackerState,
  type TrackerContext,
  type TrackerFix,
} from '#shared/tracking/domain/tracker.ts';
import { seededRandom } from '#test/support/seeded-random.ts';
import { Breadcrumbs, contextWith, destination, ORIGIN, slosh, watchedStop } from './breadcrumbs.ts';

/** A watched stop well away from every parking place below: fuelings do not need one. */
const farStop = watchedStop('stop_far', destination(ORIGIN, 180, 50));

function fuelingsOf(fixes: readonly TrackerFix[], context: TrackerContext = contextWith([farStop])) {
  return advanceTracker(initialTrackerState(), fixes, context).detections.filter(
    (d): d is Extract<Detection, { kind: 'fueling' }> => d.kind === 'fueling',
  );
}

/** 25 % before, a pump adding 15 points a minute from the 4th parked fix, 90 % once full. */
const fillFrom25To90 = (i: number) => (i < 3 ? 25 : Math.min(90, 25 + (i - 2) * 15));

describe('fueling', () => {
  it('detects a fill from 25 % to 90 % away from any watched stop: 97.5 gal of a 150 gal tank', () => {
    // Arrange: 20 minutes' drive, 20 minutes parked (filling), then away.
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 20, speedMph: 60, level: 25 })
      .park({ minutes: 20, level: fillFrom25To90 })
      .drive({ minutes: 10, speedMph: 60, level: 90 });
    const parked = route.fixes.slice(20, 40);
    // The third 90 % reading is the first flat run of three: the fill is over.
    const plateau = parked[9] as TrackerFix;
    expect(parked.slice(7, 10).map((fix) => fix.fuelLevelPercent)).toEqual([90, 90, 90]);

    // Act
    const { detections } = advanceTracker(initialTrackerState(), route.fixes, contextWith([farStop]));

    // Assess: one fueling, no arrival anywhere.
    expect(detections).toEqual([
      {
        kind: 'fueling',
        startedAtMs: parked[0]?.recordedAtMs,
        endedAtMs: plateau.recordedAtMs,
        latitude: parked[0]?.latitude,
        longitude: parked[0]?.longitude,
        levelBeforePercent: 25,
        levelAfterPercent: 90,
        gallons: 97.5,
      },
    ]);
  });

  it('reports the fill while the truck is still parked, and never again for that stop', () => {
    // Arrange: fills, then parks overnight at a 5-minute cadence with a little sensor noise.
    const random = seededRandom(7);
    const fueled = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 20, speedMph: 60, level: 25 })
      .park({ minutes: 12, level: fillFrom25To90 });
    const overnight = new Breadcrumbs(fueled.position, fueled.fixes.at(-1)?.recordedAtMs)
      .park({ minutes: 8 * 60, everyMinutes: 5, level: () => 90 + slosh(random, 1) })
      .drive({ minutes: 10, speedMph: 60, level: 89 });

    // Act
    const evening = advanceTracker(initialTrackerState(), fueled.fixes, contextWith());
    const morning = advanceTracker(evening.state, overnight.fixes, contextWith());

    // Assess
    expect(evening.detections).toEqual([expect.objectContaining({ kind: 'fueling', gallons: 97.5 })]);
    expect(morning.detections).toEqual([]);
  });

  it('reports a fill that never settled while parked once the truck moves off', () => {
    // Arrange: leaves one minute after the pump stops: the last three readings are 75, 90, 90.
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 20, speedMph: 60, level: 30 })
      .park({ minutes: 6, level: (i) => [30, 30, 30, 60, 75, 90][i] ?? null })
      .park({ minutes: 1, level: 90 })
      .drive({ minutes: 5, speedMph: 60, level: 90 });
    const lastParked = route.fixes[26] as TrackerFix;

    // Act
    const whileParked = advanceTracker(initialTrackerState(), route.fixes.slice(0, 27), contextWith());
    const movingOff = advanceTracker(whileParked.state, route.fixes.slice(27, 28), contextWith());

    // Assess
    expect(whileParked.detections).toEqual([]);
    expect(movingOff.detections).toEqual([
      expect.objectContaining({
        kind: 'fueling',
        endedAtMs: lastParked.recordedAtMs,
        levelBeforePercent: 30,
        levelAfterPercent: 90,
        gallons: 90,
      }),
    ]);
  });

  it('detects a fill seen at a 5-minute cadence', () => {
    // Arrange: four parked fixes over 15 minutes: 40 %, 70 % (mid-fill), 95 %, 95 %.
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 30, speedMph: 60, everyMinutes: 5, level: 40 })
      .park({ minutes: 20, everyMinutes: 5, level: (i) => [40, 70, 95, 95][i] ?? null })
      .drive({ minutes: 10, speedMph: 60, everyMinutes: 5, level: 95 });

    // Act / Assess
    expect(fuelingsOf(route.fixes, { ...contextWith(), tankGallons: 200 })).toEqual([
      expect.objectContaining({ levelBeforePercent: 40, levelAfterPercent: 95, gallons: 110 }),
    ]);
  });

  it.each([
    [9, []],
    [10, [15]],
  ])('needs a rise of 10 points: a %i-point top-off gives gallons %j', (rise, gallons) => {
    // Arrange
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 10, speedMph: 60, level: 60 })
      .park({ minutes: 10, level: (i) => (i < 3 ? 60 : 60 + rise) })
      .drive({ minutes: 5, speedMph: 60, level: 60 + rise });

    // Act / Assess
    expect(fuelingsOf(route.fixes).map((fueling) => fueling.gallons)).toEqual(gallons);
  });

  it('reports no gallons without a tank size', () => {
    // Arrange
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 10, speedMph: 60, level: 25 })
      .park({ minutes: 20, level: fillFrom25To90 });

    // Act / Assess
    expect(fuelingsOf(route.fixes, { ...contextWith(), tankGallons: null })).toEqual([
      expect.objectContaining({ levelBeforePercent: 25, levelAfterPercent: 90, gallons: null }),
    ]);
  });

  it('finds the true rise through slosh: readings ±8 while driving, ±1 parked', () => {
    // Arrange
    const random = seededRandom(3);
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 30, speedMph: 60, level: () => 35 + slosh(random, 8) })
      .park({ minutes: 20, level: (i) => fillFrom25To90(i) + 10 + slosh(random, 1) })
      .drive({ minutes: 30, speedMph: 60, level: () => 100 + slosh(random, 8) });

    // Act
    const fuelings = fuelingsOf(route.fixes);

    // Assess: one fueling, close to 35 % → 100 %.
    expect(fuelings).toHaveLength(1);
    expect(Math.abs((fuelings[0]?.levelBeforePercent ?? 0) - 35)).toBeLessThan(4);
    expect(Math.abs((fuelings[0]?.levelAfterPercent ?? 0) - 100)).toBeLessThanOrEqual(1);
  });
});

describe('no fueling from noise', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])(
    'ignores slosh while driving, at red lights and over a long stop (seed %i)',
    (seed) => {
      // Arrange: the true level only falls; readings slosh ±8 moving and at 2- and 1-minute red lights.
      const random = seededRandom(seed);
      let trueLevel = 70;
      const moving = () => {
        trueLevel -= 0.15;
        return trueLevel + slosh(random, 8);
      };
      const route = new Breadcrumbs(ORIGIN)
        .drive({ minutes: 30, speedMph: 60, level: moving })
        .park({ minutes: 3, level: () => trueLevel + slosh(random, 8) })
        .drive({ minutes: 20, speedMph: 45, level: moving })
        .park({ minutes: 2, level: () => trueLevel + slosh(random, 8) })
        .drive({ minutes: 15, speedMph: 60, level: moving })
        .park({ minutes: 30, level: () => trueLevel + slosh(random, 1) })
        .drive({ minutes: 30, speedMph: 60, level: moving })
        .drive({ minutes: 30, speedMph: 60, level: moving, reportSpeed: false, everyMinutes: 5 });

      // Act / Assess
      expect(fuelingsOf(route.fixes)).toEqual([]);
    },
  );

  it('ignores a sloshing high at a red light after a braking dip', () => {
    // Arrange: braking throws the fuel back (41, 40), the stop throws it forward (58, 57).
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 6, speedMph: 60, level: (i) => [50, 51, 49, 50, 41, 40][i] ?? null })
      .park({ minutes: 2, level: (i) => [58, 57][i] ?? null })
      .drive({ minutes: 5, speedMph: 60, level: 50 });

    // Act / Assess
    expect(fuelingsOf(route.fixes)).toEqual([]);
  });

  it('ignores a braking dip before a long stop', () => {
    // Arrange: the last two moving readings dip 10 points; parked, the level reads true again.
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 6, speedMph: 60, level: (i) => [50, 51, 49, 50, 41, 40][i] ?? null })
      .park({ minutes: 15, level: (i) => 50 + (i % 2) * 0.5 })
      .drive({ minutes: 5, speedMph: 60, level: 50 });

    // Act / Assess
    expect(fuelingsOf(route.fixes)).toEqual([]);
  });

  it('ignores a short stop even when its readings sit well above the drive before it', () => {
    // Arrange: climbing a grade pools the fuel away from the sender (44 %); level at the light, 56 %.
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 10, speedMph: 50, level: (i) => 44 + (i % 2) })
      .park({ minutes: 3, level: (i) => 56 - (i % 2) })
      .drive({ minutes: 5, speedMph: 50, level: 50 });

    // Act / Assess: a 10+ point median rise, but over 2 minutes: a red light, not a fill.
    expect(fuelingsOf(route.fixes)).toEqual([]);
  });

  it('ignores a crawl in a jam: stationary-slow fixes drifting away are not one stop', () => {
    // Arrange: no speeds, 0.08 mi a minute for 20 minutes (1.6 mi); the road levels out, 44 % → 56 %.
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 10, speedMph: 50, reportSpeed: false, level: 44 })
      .drive({ minutes: 20, speedMph: 4.8, reportSpeed: false, level: 56 })
      .drive({ minutes: 5, speedMph: 50, reportSpeed: false, level: 55 });

    // Act / Assess
    expect(fuelingsOf(route.fixes)).toEqual([]);
  });

  it('needs two readings at rest: one high reading in an otherwise silent stop is not a fill', () => {
    // Arrange: parked 10 minutes; only one fix carries a level.
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 10, speedMph: 60, level: 40 })
      .park({ minutes: 10, level: (i) => (i === 6 ? 75 : null) })
      .drive({ minutes: 5, speedMph: 60 });

    // Act / Assess
    expect(fuelingsOf(route.fixes)).toEqual([]);
  });

  it('ignores a hard-braking surge on the first parked reading', () => {
    // Arrange: the stop throws the fuel away from the sender once (38 %); then it reads true.
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 10, speedMph: 60, level: 50 })
      .park({ minutes: 15, level: (i) => (i === 0 ? 38 : 50) })
      .drive({ minutes: 5, speedMph: 60, level: 50 });

    // Act / Assess
    expect(fuelingsOf(route.fixes)).toEqual([]);
  });

  it('ignores one spiking reading during a long stop', () => {
    // Arrange
    const route = new Breadcrumbs(ORIGIN)
      .drive({ minutes: 10, speedMph: 60, level: 50 })
      .park({ minutes: 10, level: (i) => (i === 8 ? 75 : 50) })
      .drive({ minutes: 5, speedMph: 60, level: 50 });

    // Act / Assess
    expect(fuelingsOf(route.fixes)).toEqual([]);
  });
});
