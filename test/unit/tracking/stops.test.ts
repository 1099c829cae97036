import { describe, expect, it } from 'vitest';
import { haversineMiles } from '#shared/kernel/distance.ts';
import {
  advanceTracker,
  currentStop,
  DETECTION_POLICY,
  type Detection,
  initialTrackerState,
  lastFix,
  type TrackerContext,
  type TrackerFix,
  type TrackerState,
} from '#shared/tracking/domain/tracker.ts';
import { Breadcrumbs, contextWith, destination, MINUTE_MS, ORIGIN, watchedStop } from './breadcrumbs.ts';

const stop = watchedStop('stop_1', destination(ORIGIN, 0, 5));
const otherStop = watchedStop('stop_2', destination(ORIGIN, 90, 30));

function run(fixes: readonly TrackerFix[], context: TrackerContext = contextWith([stop])) {
  return advanceTracker(initialTrackerState(), fixes, context);
}

/** Feeds one fix at a time; each detection is paired with the index of the fix that revealed it. */
function runOneByOne(fixes: readonly TrackerFix[], context: TrackerContext = contextWith([stop])) {
  let state: TrackerState = initialTrackerState();
  const revealed: { index: number; detection: Detection }[] = [];
  fixes.forEach((fix, index) => {
    const step = advanceTracker(state, [fix], context);
    state = step.state;
    for (const detection of step.detections) revealed.push({ index, detection });
  });
  return { state, revealed };
}

describe('arrival at and departure from a watched stop', () => {
  it('reports one arrival dated from the first stationary fix, and one departure with the dwell', () => {
    // Arrange: 5 mi north to the stop at 60 mph, 20 minutes parked, then away at 60 mph.
    const route = new Breadcrumbs(ORIGIN)
      .driveTo(stop, { speedMph: 60, level: 60 })
      .park({ minutes: 20, level: 60 })
      .drive({ minutes: 10, speedMph: 60, level: 59 });
    const firstParked = route.fixes[5] as TrackerFix;
    const firstAway = route.fixes[25] as TrackerFix;

    // Act
    const { state, revealed } = runOneByOne(route.fixes);

    // Assess: the arrival is revealed once the dwell minimum has passed (3 fixes later).
    expect(revealed).toEqual([
      {
        index: 5 + DETECTION_POLICY.minDwellMinutes,
        detection: {
          kind: 'stop_arrived',
          atMs: firstParked.recordedAtMs,
          stop,
          latitude: firstParked.latitude,
          longitude: firstParked.longitude,
        },
      },
      {
        index: 25,
        detection: {
          kind: 'stop_departed',
          atMs: firstAway.recordedAtMs,
          stop,
          arrivedAtMs: firstParked.recordedAtMs,
          dwellMinutes: 20,
        },
      },
    ]);
    expect(currentStop(state)).toBeNull();
  });

  it('knows the stop the vehicle is dwelling at, between arrival and departure', () => {
    // Arrange
    const route = new Breadcrumbs(ORIGIN).driveTo(stop, { speedMph: 60 }).park({ minutes: 10 });

    // Act
    const { state } = run(route.fixes);

    // Assess
    expect(currentStop(state)).toEqual(stop);
    expect(lastFix(state)).toEqual(route.fixes.at(-1));
  });

  it('reports nothing for a drive past the stop at highway speed, with or without speeds', () => {
    // Arrange: straight through the stop's coordinates and 5 mi beyond, 1-minute fixes.
    const withSpeed = new Breadcrumbs(ORIGIN).drive({ minutes: 10, speedMph: 60, level: 50 });
    const withoutSpeed = new Breadcrumbs(ORIGIN).drive({ minutes: 10, speedMph: 60, reportSpeed: false });
    expect(withSpeed.fixes.some((fix) => haversineMiles(fix, stop) < 0.01)).toBe(true);

    // Act / Assess
    expect(run(withSpeed.fixes).detections).toEqual([]);
    expect(run(withoutSpeed.fixes).detections).toEqual([]);
  });

  it('reports nothing for a stop shorter than the dwell minimum', () => {
    // Arrange: 2 minutes stationary at the stop (3 fixes), then on.
    const route = new Breadcrumbs(ORIGIN)
      .driveTo(stop, { speedMph: 60, level: 50 })
      .park({ minutes: 2, level: 50 })
      .drive({ minutes: 5, speedMph: 60, level: 50 });

    // Act / Assess
    expect(run(route.fixes).detections).toEqual([]);
  });

  it('reports nothing for a long stop outside the arrival radius', () => {
    // Arrange: parked 0.4 mi short of the stop for half an hour.
    const nearby = destination(stop, 180, 0.4);
    const route = new Breadcrumbs(ORIGIN)
      .driveTo(nearby, { speedMph: 60 })
      .park({ minutes: 30 })
      .drive({ minutes: 5, speedMph: 60, bearingDegrees: 270 });

    // Act / Assess
    expect(run(route.fixes).detections).toEqual([]);
  });

  it('infers stationarity from the distance moved when the device sends no speed', () => {
    // Arrange: a few metres of GPS wander while parked, no speed anywhere.
    const route = new Breadcrumbs(ORIGIN)
      .driveTo(stop, { speedMph: 60, reportSpeed: false })
      .park({ minutes: 10, reportSpeed: false });
    const wandering = route.fixes.map((fix, index) =>
      index < 5 ? fix : { ...fix, ...destination(fix, (index * 77) % 360, 0.01) },
    );
    const away = new Breadcrumbs(route.position, route.fixes.at(-1)?.recordedAtMs).drive({
      minutes: 3,
      speedMph: 45,
      reportSpeed: false,
    });

    // Act
    const detections = run([...wandering, ...away.fixes]).detections;

    // Assess
    expect(detections.map((d) => d.kind)).toEqual(['stop_arrived', 'stop_departed']);
    expect(detections[1]).toMatchObject({ dwellMinutes: 10 });
  });

  it('departs a slow mover once outside the arrival radius, before the departure radius', () => {
    // Arrange: leaves at 12 mph; fixes at 0.2 mi (inside 0.25) and 0.4 mi (outside, under 0.5).
    const route = new Breadcrumbs(ORIGIN)
      .driveTo(stop, { speedMph: 60 })
      .park({ minutes: 10 })
      .drive({ minutes: 3, speedMph: 12 });

    // Act
    const { revealed } = runOneByOne(route.fixes);

    // Assess
    expect(revealed.map(({ index, detection }) => [index, detection.kind])).toEqual([
      [8, 'stop_arrived'],
      [16, 'stop_departed'],
    ]);
  });

  it('departs when next seen standing beyond the departure radius (a gap in the data)', () => {
    // Arrange: parked at the stop from minute 6 to 15, next seen at minute 56, parked 12 miles on.
    const route = new Breadcrumbs(ORIGIN).driveTo(stop, { speedMph: 60 }).park({ minutes: 10 });
    const elsewhere = new Breadcrumbs(
      destination(stop, 0, 12),
      (route.fixes.at(-1)?.recordedAtMs ?? 0) + 40 * MINUTE_MS,
    ).park({ minutes: 2 }).fixes;

    // Act
    const { state, detections } = run([...route.fixes, ...elsewhere]);

    // Assess
    expect(detections.map((d) => d.kind)).toEqual(['stop_arrived', 'stop_departed']);
    expect(detections[1]).toMatchObject({ atMs: elsewhere[0]?.recordedAtMs, dwellMinutes: 50 });
    expect(currentStop(state)).toBeNull();
  });

  it.each([
    ['5 mph counts as stationary', 8.05, ['stop_arrived']],
    ['6 mph counts as moving', 9.66, []],
  ])('creeping through the pump queue: %s', (_why, speedKmh, kinds) => {
    // Arrange
    const route = new Breadcrumbs(ORIGIN).driveTo(stop, { speedMph: 60 }).park({ minutes: 10 });
    const creeping = route.fixes.map((fix, index) => (index < 5 ? fix : { ...fix, speedKmh }));

    // Act / Assess
    expect(run(creeping).detections.map((d) => d.kind)).toEqual(kinds);
  });

  it('treats the very first fix without a speed as moving: nothing to compare it with', () => {
    // Arrange: the device wakes up at the stop and reports no speed.
    const fixes = new Breadcrumbs(stop).park({ minutes: 5, reportSpeed: false }).fixes;

    // Act
    const { detections } = run(fixes);

    // Assess: settling starts at the second fix, so the arrival dates from it.
    expect(detections).toEqual([
      expect.objectContaining({ kind: 'stop_arrived', atMs: fixes[1]?.recordedAtMs }),
    ]);
  });

  it('keeps the visit through a stationary fix between the arrival and departure radii (GPS jump)', () => {
    // Arrange
    const route = new Breadcrumbs(ORIGIN).driveTo(stop, { speedMph: 60 }).park({ minutes: 10 });
    const jumped = route.fixes.map((fix, index) =>
      index === 10 ? { ...fix, ...destination(stop, 45, 0.4) } : fix,
    );

    // Act
    const { state, detections } = run(jumped);

    // Assess
    expect(detections.map((d) => d.kind)).toEqual(['stop_arrived']);
    expect(currentStop(state)).toEqual(stop);
  });

  it('departs from the stop it arrived at even when the watched stops have changed since', () => {
    // Arrange
    const route = new Breadcrumbs(ORIGIN)
      .driveTo(stop, { speedMph: 60 })
      .park({ minutes: 10 })
      .drive({ minutes: 3, speedMph: 60 });
    const arrived = run(route.fixes.slice(0, 12));

    // Act: the session now watches another stop only.
    const rest = advanceTracker(arrived.state, route.fixes.slice(12), contextWith([otherStop]));

    // Assess
    expect(currentStop(arrived.state)).toEqual(stop);
    expect(rest.detections).toEqual([expect.objectContaining({ kind: 'stop_departed', stop })]);
  });

  it('does not arrive at a stop that stopped being watched while the vehicle was settling', () => {
    // Arrange
    const route = new Breadcrumbs(ORIGIN).driveTo(stop, { speedMph: 60 }).park({ minutes: 10 });
    const settling = run(route.fixes.slice(0, 7));

    // Act
    const rest = advanceTracker(settling.state, route.fixes.slice(7), contextWith([otherStop]));

    // Assess
    expect(settling.detections).toEqual([]);
    expect(rest.detections).toEqual([]);
  });

  it('arrives at the nearest of two watched stops within the radius', () => {
    // Arrange: two listings 0.2 mi apart; the truck parks 0.05 mi from the second.
    const first = watchedStop('stop_a', destination(stop, 180, 0.15));
    const second = watchedStop('stop_b', destination(stop, 0, 0.05));
    const route = new Breadcrumbs(ORIGIN).driveTo(stop, { speedMph: 60 }).park({ minutes: 5 });

    // Act
    const { detections } = run(route.fixes, contextWith([first, second]));

    // Assess
    expect(detections).toEqual([expect.objectContaining({ kind: 'stop_arrived', stop: second })]);
  });

  it('arrives on the second fix at a 5-minute cadence', () => {
    // Arrange
    const route = new Breadcrumbs(ORIGIN)
      .driveTo(stop, { speedMph: 60, everyMinutes: 5 })
      .park({ minutes: 15, everyMinutes: 5 })
      .drive({ minutes: 10, speedMph: 60, everyMinutes: 5 });
    const parked = route.fixes.filter((fix) => fix.speedKmh === 0);

    // Act
    const { revealed } = runOneByOne(route.fixes);

    // Assess
    expect(parked).toHaveLength(3);
    expect(revealed).toEqual([
      {
        index: route.fixes.indexOf(parked[1] as TrackerFix),
        detection: expect.objectContaining({ kind: 'stop_arrived', atMs: parked[0]?.recordedAtMs }),
      },
      {
        index: route.fixes.length - 2,
        detection: expect.objectContaining({ kind: 'stop_departed', dwellMinutes: 15 }),
      },
    ]);
  });
});
