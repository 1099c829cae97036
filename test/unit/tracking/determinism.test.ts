import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuelLevelNow } from '#shared/tracking/domain/fuel-level.ts';
import {
  advanceTracker,
  DETECTION_POLICY,
  type Detection,
  initialTrackerState,
  type TrackerContext,
  type TrackerFix,
  type TrackerState,
} from '#shared/tracking/domain/tracker.ts';
import { PROPERTY_TIMEOUT_MS } from '#test/support/property-budget.ts';
import { seededRandom } from '#test/support/seeded-random.ts';
import {
  aDayOnTheRoad,
  Breadcrumbs,
  contextWith,
  destination,
  ORIGIN,
  slosh,
  watchedStop,
} from './breadcrumbs.ts';

/** Feeds the fixes in consecutive batches ending before each cut, optionally storing and reloading the state as JSON between batches. */
function feedInBatches(
  fixes: readonly TrackerFix[],
  cuts: readonly number[],
  context: TrackerContext,
  throughJson = false,
): { state: TrackerState; detections: Detection[] } {
  const bounds = [...new Set([0, ...cuts, fixes.length])].sort((a, b) => a - b);
  let state = initialTrackerState();
  const detections: Detection[] = [];
  for (let i = 1; i < bounds.length; i++) {
    const step = advanceTracker(state, fixes.slice(bounds[i - 1], bounds[i]), context);
    state = throughJson ? JSON.parse(JSON.stringify(step.state)) : step.state;
    detections.push(...step.detections);
  }
  return { state, detections };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const day = aDayOnTheRoad();
const wholeDay = advanceTracker(initialTrackerState(), day.fixes, day.context);

/** Legs of a random route: driving (some without speeds or readings, some sloshing), stops, fills. */
const leg = fc.record({
  kind: fc.constantFrom('drive', 'park', 'fill'),
  minutes: fc.integer({ min: 1, max: 40 }),
  everyMinutes: fc.constantFrom(1, 2, 5),
  speedMph: fc.integer({ min: 0, max: 70 }),
  bearingDegrees: fc.integer({ min: 0, max: 359 }),
  reportSpeed: fc.boolean(),
  reportLevel: fc.boolean(),
  toStop: fc.boolean(),
});
const route = fc
  .record({ legs: fc.array(leg, { minLength: 1, maxLength: 12 }), seed: fc.integer() })
  .map(({ legs, seed }) => {
    const random = seededRandom(seed);
    const stop = watchedStop('stop_fc', destination(ORIGIN, 0, 3));
    const crumbs = new Breadcrumbs(ORIGIN);
    let level = 28;
    for (const { kind, reportLevel, toStop, ...options } of legs) {
      if (kind === 'drive') {
        const reading = () => {
          level = Math.max(0, level - 0.2 * options.everyMinutes);
          return reportLevel ? level + slosh(random, 8) : null;
        };
        if (toStop)
          crumbs.driveTo(stop, { ...options, speedMph: Math.max(10, options.speedMph), level: reading });
        else crumbs.drive({ ...options, level: reading });
      } else {
        const reading = () => {
          if (kind === 'fill') level = Math.min(100, level + 12 * options.everyMinutes);
          return reportLevel ? level + slosh(random, 1) : null;
        };
        crumbs.park({ ...options, level: reading });
      }
    }
    return { fixes: crumbs.fixes, context: contextWith([stop]) };
  });

describe('determinism', () => {
  it('has one of each detection in the scripted day, so the checks below are not vacuous', () => {
    // Assess
    expect(wholeDay.detections.map((d) => d.kind)).toEqual([
      'fuel_low',
      'stop_arrived',
      'fueling',
      'stop_departed',
    ]);
  });

  it('gives the same detections and state whether fed whole or split at any fix', () => {
    for (let cut = 0; cut <= day.fixes.length; cut++) {
      // Act
      const split = feedInBatches(day.fixes, [cut], day.context);

      // Assess
      expect(split).toStrictEqual(wholeDay);
    }
  });

  it('gives the same detections and state fed one fix at a time, through JSON between each', () => {
    // Act
    const oneByOne = feedInBatches(
      day.fixes,
      day.fixes.map((_, index) => index),
      day.context,
      true,
    );

    // Assess
    expect(oneByOne).toStrictEqual(wholeDay);
  });

  it('property: any route, any batches, with or without a JSON round trip, gives the same result', {
    timeout: PROPERTY_TIMEOUT_MS,
  }, () => {
    fc.assert(
      fc.property(
        route,
        fc.array(fc.nat({ max: 400 }), { maxLength: 6 }),
        fc.boolean(),
        ({ fixes, context }, cuts, throughJson) => {
          // Act
          const whole = advanceTracker(initialTrackerState(), fixes, context);
          const split = feedInBatches(fixes, cuts, context, throughJson);

          // Assess
          expect(split).toStrictEqual(whole);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('property: replaying any already processed fixes detects nothing and leaves the state as it was', {
    timeout: PROPERTY_TIMEOUT_MS,
  }, () => {
    fc.assert(
      fc.property(route, fc.nat(), fc.nat(), ({ fixes, context }, a, b) => {
        // Arrange
        const { state } = advanceTracker(initialTrackerState(), fixes, context);
        const [from, to] = [a % (fixes.length + 1), b % (fixes.length + 1)].sort((x, y) => x - y);

        // Act
        const replay = advanceTracker(state, fixes.slice(from, to), context);

        // Assess
        expect(replay.detections).toEqual([]);
        expect(replay.state).toStrictEqual(state);
      }),
      { numRuns: 150 },
    );
  });

  it('replays a redelivered batch, and a batch overlapping the processed ones, without repeating anything', () => {
    // Arrange
    const first = advanceTracker(initialTrackerState(), day.fixes.slice(0, 60), day.context);

    // Act
    const redelivered = advanceTracker(first.state, day.fixes.slice(0, 60), day.context);
    const overlapping = advanceTracker(first.state, day.fixes.slice(40), day.context);

    // Assess
    expect(redelivered).toStrictEqual({ state: first.state, detections: [] });
    expect([...first.detections, ...overlapping.detections]).toStrictEqual(wholeDay.detections);
    expect(overlapping.state).toStrictEqual(wholeDay.state);
  });

  it('keeps a state that survives JSON unchanged: no undefined, Date or Map anywhere', () => {
    for (let cut = 0; cut <= day.fixes.length; cut += 7) {
      // Act
      const { state } = advanceTracker(initialTrackerState(), day.fixes.slice(0, cut), day.context);

      // Assess
      expect(JSON.parse(JSON.stringify(state))).toStrictEqual(state);
    }
  });

  it('answers the fuel level the same from a state reloaded from JSON', () => {
    // Arrange: the day ends with miles driven after the last reading.
    const cut = day.fixes.length - 4;
    const { state } = advanceTracker(initialTrackerState(), day.fixes.slice(0, cut), day.context);
    const reloaded: TrackerState = JSON.parse(JSON.stringify(state));

    // Act / Assess
    const assumption = { percent: 100, atMs: 0, odometerMiles: null };
    const levelOf = (s: TrackerState) => fuelLevelNow(s, [], day.context, assumption);
    expect(levelOf(state)).toMatchObject({ source: 'projected' });
    expect(levelOf(reloaded)).toStrictEqual(levelOf(state));
  });

  it('does not modify the state or fixes it is given', () => {
    // Arrange
    const half = advanceTracker(initialTrackerState(), day.fixes.slice(0, 50), day.context).state;
    const frozenState = deepFreeze(structuredClone(half));
    const frozenFixes = deepFreeze(structuredClone(day.fixes.slice(50)));

    // Act
    const rest = advanceTracker(frozenState, frozenFixes, day.context);

    // Assess
    expect(frozenState).toStrictEqual(half);
    expect(rest.state).toStrictEqual(wholeDay.state);
  });

  it('sorts a batch by recorded time, skips a duplicate timestamp and fixes older than the state', () => {
    // Arrange
    const shuffled = [...day.fixes].reverse();
    const withDuplicate = [...day.fixes.slice(0, 30), { ...(day.fixes[29] as TrackerFix), latitude: 0 }];

    // Act
    const fromShuffled = advanceTracker(initialTrackerState(), shuffled, day.context);
    const fromDuplicate = advanceTracker(initialTrackerState(), withDuplicate, day.context);

    // Assess
    expect(fromShuffled).toStrictEqual(wholeDay);
    expect(fromDuplicate.state.lastFix).toStrictEqual(day.fixes[29]);
  });

  it('stores only the tracker fields of richer position and stop records', () => {
    // Arrange: the worker may pass stored positions and guidance stops, which carry more.
    const rich = day.fixes.map((fix) => ({
      ...fix,
      driverRef: 'drv_7',
      address: '1 Main St',
      headingDegrees: 90,
    }));
    const richStops = day.context.watchedStops.map((stop) => ({ ...stop, rank: 1, pricePerGallon: 3.59 }));
    const halfway = advanceTracker(initialTrackerState(), rich.slice(0, 60), {
      ...day.context,
      watchedStops: richStops,
    });

    // Act
    const rest = advanceTracker(halfway.state, rich.slice(60), { ...day.context, watchedStops: richStops });

    // Assess: the same as from plain records, the detections' stops included.
    expect(halfway.state).toStrictEqual(
      advanceTracker(initialTrackerState(), day.fixes.slice(0, 60), day.context).state,
    );
    expect({ state: rest.state, detections: [...halfway.detections, ...rest.detections] }).toStrictEqual(
      wholeDay,
    );
  });

  it('keeps the state small however long the vehicle drives', () => {
    // Arrange: a week of 1-minute fixes with readings, stops at every hour.
    const random = seededRandom(9);
    const week = new Breadcrumbs(ORIGIN);
    for (let hour = 0; hour < 7 * 24; hour++) {
      week
        .drive({
          minutes: 50,
          speedMph: 55,
          bearingDegrees: (hour * 37) % 360,
          level: () => 60 + slosh(random, 8),
        })
        .park({ minutes: 10, level: () => 60 + slosh(random, 1) });
    }

    // Act
    const { state } = advanceTracker(initialTrackerState(), week.fixes, contextWith());

    // Assess
    expect(state.recentLevels).toHaveLength(DETECTION_POLICY.smoothingReadings);
    expect(JSON.stringify(state).length).toBeLessThan(1500);
  });
});
