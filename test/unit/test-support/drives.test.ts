import { describe, expect, it } from 'vitest';
import { DEFAULT_RESERVE_FRACTION } from '#shared/fuel-plan/domain/policy.ts';
import { pointAtMiles } from '#shared/geo/route-line.ts';
import { projectOntoRoute } from '#shared/geo/route-projection.ts';
import { GUIDANCE_POLICY } from '#shared/guidance/domain/policy.ts';
import { haversineMiles } from '#shared/kernel/distance.ts';
import { fleetFigures, shownStopWithdrawals, updatesPerHour } from '#test/support/drives/figures.ts';
import {
  BUFFER_WINDOW_MS,
  type DriveCrumb,
  type DriveGroup,
  type DriveSpec,
  deliveryPosts,
  drivesToShownStop,
  generateFleet,
  MAX_APPROACH_MILES,
  OTHER_STATION_MILES,
  otherStationFor,
  routeOf,
  SAVINGS_FLEET_MIX,
  scriptDrive,
  scriptDriveWithFills,
} from '#test/support/drives/generator.ts';
import type { DriveOutcome, SeenStop, Sighting } from '#test/support/drives/harness.ts';

/**
 * The drive simulator the guidance property test and the fleet bench stand on: if it drove trucks
 * somewhere else than it says, both would measure nothing.
 */
const START_MS = Date.parse('2026-11-02T06:00:00Z');
const fleet = generateFleet({ seed: 7, drives: 60 });
const drives = fleet.flatMap((group) => group.drives);

/** A drive of the fleet with the given behaviour, its stop 20 road miles ahead, 0.8 mi off the road. */
function driveWith(behaviour: DriveSpec['behaviour'], overrides: Partial<DriveSpec> = {}) {
  const spec: DriveSpec = { ...(drives[0] as DriveSpec), behaviour, ...overrides };
  const route = routeOf(spec);
  const foot = pointAtMiles(route, spec.startMile + 20);
  const ahead = pointAtMiles(route, spec.startMile + 21);
  // 0.8 miles off the road, square to it (north or south of an east–west road, and so on).
  const dLat = ahead.latitude - foot.latitude;
  const dLon = ahead.longitude - foot.longitude;
  const norm = Math.hypot(dLat, dLon);
  const station = {
    latitude: foot.latitude + (-dLon / norm) * (0.8 / 69),
    longitude: foot.longitude + (dLat / norm) * (0.8 / (69 * Math.cos((foot.latitude * Math.PI) / 180))),
  };
  const footMile = projectOntoRoute(route, station).milesAlongRoute;
  return { spec, station, footMile, crumbs: scriptDrive(spec, station, START_MS) };
}

describe('generateFleet', () => {
  it('draws the same fleet from the same seed, and another from another', () => {
    expect(generateFleet({ seed: 7, drives: 60 })).toEqual(fleet);
    expect(generateFleet({ seed: 8, drives: 60 })).not.toEqual(fleet);
  });

  it('draws drives within the issue’s ranges, in groups of at most the size asked', () => {
    expect(drives.map((d) => d.index)).toEqual(drives.map((_, i) => i));
    for (const drive of drives) {
      expect(drive.startFuelPercent).toBeGreaterThanOrEqual(12);
      expect(drive.startFuelPercent).toBeLessThanOrEqual(60);
      expect(drive.cadenceSeconds).toBeGreaterThanOrEqual(30);
      expect(drive.cadenceSeconds).toBeLessThanOrEqual(300);
      expect(drive.sloshPercent).toBeGreaterThanOrEqual(1);
      expect(drive.sloshPercent).toBeLessThanOrEqual(3);
    }
    expect(Math.max(...fleet.map((g) => g.drives.length))).toBeLessThanOrEqual(4);
    expect(new Set(fleet.map((g) => g.delivery))).toEqual(new Set(['live', 'buffered', 'hours_late']));
    expect(new Set(drives.map((d) => d.behaviour)).size).toBe(4);
  });

  it('draws only the behaviours given weight', () => {
    const only = generateFleet({ seed: 3, drives: 20, behaviours: { passes_the_exit: 1 } });
    expect(new Set(only.flatMap((g) => g.drives.map((d) => d.behaviour)))).toEqual(
      new Set(['passes_the_exit']),
    );
  });
});

describe('scriptDrive', () => {
  it('samples at the drive’s cadence from the moment guidance started', () => {
    const { spec, crumbs } = driveWith('fuels_at_shown_stop');
    expect(crumbs[0]?.recordedAtMs).toBe(START_MS + spec.cadenceSeconds * 1000);
    for (let i = 1; i < crumbs.length; i++) {
      expect((crumbs[i] as DriveCrumb).recordedAtMs - (crumbs[i - 1] as DriveCrumb).recordedAtMs).toBe(
        spec.cadenceSeconds * 1000,
      );
    }
  });

  it('fuels at the shown stop: exits at its foot, stands at the pumps, fills to the target, rejoins past it', () => {
    const { spec, station, footMile, crumbs } = driveWith('fuels_at_shown_stop', { cadenceSeconds: 60 });
    const phases = crumbs.map((c) => c.phase).filter((phase, i, all) => phase !== all[i - 1]);
    expect(phases).toEqual(['road', 'to_station', 'at_station', 'to_road', 'road']);
    const atPumps = crumbs.filter((c) => c.phase === 'at_station');
    expect(atPumps.length).toBeGreaterThanOrEqual(spec.dwellMinutes - 1);
    for (const crumb of atPumps) {
      expect(crumb.speedMph).toBe(0);
      expect(haversineMiles(crumb, station)).toBeLessThan(0.05);
    }
    const before = crumbs.filter((c) => c.phase === 'road' && c.routeMile < footMile).at(-1) as DriveCrumb;
    const after = crumbs.find((c) => c.phase === 'road' && c.routeMile > footMile) as DriveCrumb;
    expect(before.fuelLevelPercent).toBeLessThan(spec.startFuelPercent + spec.sloshPercent);
    expect(Math.abs(after.fuelLevelPercent - spec.fillToPercent)).toBeLessThanOrEqual(
      spec.sloshPercent + 0.5,
    );
    // The last sample falls within a cadence (a minute: about a mile) of the drive's end.
    const end = footMile + 0.3 + spec.milesAfterStop;
    expect((crumbs.at(-1) as DriveCrumb).routeMile).toBeGreaterThan(end - spec.mph / 60 - 0.1);
    expect((crumbs.at(-1) as DriveCrumb).routeMile).toBeLessThanOrEqual(end + 0.01);
  });

  it('at a 5-minute cadence still reports at least two breadcrumbs at the pumps', () => {
    const { crumbs } = driveWith('fuels_at_shown_stop', { cadenceSeconds: 300, dwellMinutes: 10 });
    expect(crumbs.filter((c) => c.phase === 'at_station').length).toBeGreaterThanOrEqual(2);
  });

  it('passes the exit: never leaves the road, and drives on past the stop', () => {
    const { spec, footMile, crumbs } = driveWith('passes_the_exit');
    expect(new Set(crumbs.map((c) => c.phase))).toEqual(new Set(['road']));
    const miles = crumbs.map((c) => c.routeMile);
    expect(miles).toEqual([...miles].sort((a, b) => a - b));
    const end = footMile + spec.milesAfterStop;
    expect(miles.at(-1)).toBeGreaterThan(end - (spec.mph / 60) * (spec.cadenceSeconds / 60) - 0.1);
    expect(miles.at(-1)).toBeLessThanOrEqual(end + 0.01);
  });

  it('exits and turns back: heads for the station without reaching it, and never stands', () => {
    const { station, crumbs } = driveWith('exits_and_turns_back', { cadenceSeconds: 30 });
    expect(crumbs.some((c) => c.phase === 'to_station')).toBe(true);
    expect(crumbs.some((c) => c.phase === 'at_station')).toBe(false);
    expect(Math.min(...crumbs.map((c) => haversineMiles(c, station)))).toBeGreaterThan(0.3);
    expect(crumbs.every((c) => c.speedMph > 0)).toBe(true);
  });

  it('fuels elsewhere: fills past the shown stop, miles from it', () => {
    const { spec, station, footMile, crumbs } = driveWith('fuels_elsewhere');
    const atPumps = crumbs.filter((c) => c.phase === 'at_station');
    expect(atPumps.length).toBeGreaterThan(0);
    for (const crumb of atPumps) {
      expect(haversineMiles(crumb, station)).toBeGreaterThan(5);
      expect(crumb.routeMile).toBeGreaterThan(footMile);
    }
    const last = crumbs.at(-1) as DriveCrumb;
    expect(Math.abs(last.fuelLevelPercent - spec.fillToPercent)).toBeLessThan(spec.sloshPercent + 3);
  });

  it('cruises when no stop was shown, or the stop is beyond the approach limit', () => {
    const spec = drives[0] as DriveSpec;
    const cruise = scriptDrive(spec, null, START_MS);
    expect(new Set(cruise.map((c) => c.phase))).toEqual(new Set(['road']));
    expect((cruise.at(-1) as DriveCrumb).recordedAtMs - START_MS).toBeLessThanOrEqual(
      spec.cruiseMinutes * 60_000,
    );
    const far = pointAtMiles(routeOf(spec), spec.startMile + MAX_APPROACH_MILES + 20);
    expect(drivesToShownStop(spec, far)).toBe(false);
    expect(drivesToShownStop(spec, pointAtMiles(routeOf(spec), spec.startMile + 20))).toBe(true);
    const beyond = scriptDrive(spec, far, START_MS);
    expect(new Set(beyond.map((c) => c.phase))).toEqual(new Set(['road']));
    expect((beyond.at(-1) as DriveCrumb).routeMile).toBeLessThanOrEqual(spec.startMile + MAX_APPROACH_MILES);
  });
});

describe('drivers who do not follow (the savings fleet)', () => {
  const savings = generateFleet({ seed: 7, drives: 60, ...SAVINGS_FLEET_MIX });
  const savingsDrives = savings.flatMap((g) => g.drives);
  const spec = { ...(drives[0] as DriveSpec), startMile: 10 };
  const route = routeOf(spec);
  /** A station `offMiles` off the road square to it, its foot at `mile`. */
  const stationAt = (id: string, mile: number, offMiles = 0.5) => {
    const foot = pointAtMiles(route, mile);
    const ahead = pointAtMiles(route, mile + 1);
    const dLat = ahead.latitude - foot.latitude;
    const dLon = ahead.longitude - foot.longitude;
    const norm = Math.hypot(dLat, dLon);
    return {
      id,
      latitude: foot.latitude + (-dLon / norm) * (offMiles / 69),
      longitude:
        foot.longitude + (dLat / norm) * (offMiles / (69 * Math.cos((foot.latitude * Math.PI) / 180))),
    };
  };
  const shown = { ...stationAt('shown', 100), stationId: 'shown' };
  const corridor = [
    stationAt('at-30', 30),
    stationAt('at-52', 52),
    stationAt('at-56-far-off', 56, 4),
    stationAt('at-97', 97),
    stationAt('at-125', 125),
    stationAt('at-140', 140),
  ];
  const near = () => corridor;

  it('draws followers, ignorers and early fillers, all live; the guidance fleet draws none of the new', () => {
    expect(new Set(savingsDrives.map((d) => d.behaviour))).toEqual(
      new Set(['fuels_at_shown_stop', 'fuels_past_shown_stop', 'fuels_before_shown_stop']),
    );
    expect(new Set(savings.map((g) => g.delivery))).toEqual(new Set(['live']));
    for (const drive of savingsDrives) {
      if (drive.behaviour === 'fuels_at_shown_stop') {
        expect(drive.otherStationMiles).toBeUndefined();
        continue;
      }
      const range = OTHER_STATION_MILES[drive.behaviour as keyof typeof OTHER_STATION_MILES];
      expect(drive.otherStationMiles).toBeGreaterThanOrEqual(range.min);
      expect(drive.otherStationMiles).toBeLessThanOrEqual(range.max);
    }
    expect(drives.some((d) => d.otherStationMiles !== undefined)).toBe(false);
  });

  it('an early filler fuels at the corridor station nearest its miles before the stop, never one off the corridor', () => {
    const early = { ...spec, behaviour: 'fuels_before_shown_stop' as const, otherStationMiles: 45 };
    // 100 − 45 = 55: the station at 52 (the one at 56 is 4 miles off the road).
    expect(otherStationFor(early, shown, near)?.id).toBe('at-52');
    // 100 − 80 = 20, before the nearest: the first corridor station past the truck.
    expect(otherStationFor({ ...early, otherStationMiles: 80 }, shown, near)?.id).toBe('at-30');
    // Within 5 miles of the stop is not filling early.
    expect(otherStationFor({ ...early, otherStationMiles: 3 }, shown, near)?.id).toBe('at-52');
  });

  it('an ignorer passes the stop and fuels at the corridor station nearest its miles past it', () => {
    const past = { ...spec, behaviour: 'fuels_past_shown_stop' as const, otherStationMiles: 30 };
    expect(otherStationFor(past, shown, near)?.id).toBe('at-125');
    expect(otherStationFor({ ...past, otherStationMiles: 45 }, shown, near)?.id).toBe('at-140');
    // The station just before the stop is never the ignorer's.
    expect(otherStationFor({ ...past, otherStationMiles: 1 }, shown, near)?.id).toBe('at-125');
  });

  it('never picks a station guidance showed (following a later stop of the plan is following)', () => {
    const past = { ...spec, behaviour: 'fuels_past_shown_stop' as const, otherStationMiles: 30 };
    expect(otherStationFor(past, shown, near, new Set(['at-125']))?.id).toBe('at-140');
  });

  it('an early filler fuels early even when the stop is beyond the drive, within the approach limit', () => {
    const farShown = { ...stationAt('far', MAX_APPROACH_MILES + 60), stationId: 'far' };
    const early = { ...spec, behaviour: 'fuels_before_shown_stop' as const, otherStationMiles: 70 };
    // 10 + 210 − 70 = 150 is past the approach limit (10 + 150 = 160): the nearest within it, at 140.
    expect(otherStationFor(early, farShown, near)?.id).toBe('at-140');
    const { fills } = scriptDriveWithFills(
      { ...early, cadenceSeconds: 60 },
      farShown,
      START_MS,
      stationAt('at-140', 140),
    );
    expect(fills).toHaveLength(1);
    // An ignorer does not drive to a stop that far out.
    expect(otherStationFor({ ...early, behaviour: 'fuels_past_shown_stop' }, farShown, near)).toBeNull();
  });

  it('has no other station for a follower, without a shown stop, or on an empty corridor', () => {
    expect(otherStationFor({ ...spec, behaviour: 'fuels_at_shown_stop' }, shown, near)).toBeNull();
    const early = { ...spec, behaviour: 'fuels_before_shown_stop' as const, otherStationMiles: 45 };
    expect(otherStationFor(early, null, near)).toBeNull();
    expect(otherStationFor(early, shown, () => [])).toBeNull();
  });

  it('fills at the other station (not the shown one) and reports the gallons it took', () => {
    const early = {
      ...spec,
      behaviour: 'fuels_before_shown_stop' as const,
      otherStationMiles: 45,
      cadenceSeconds: 60,
    };
    const other = stationAt('at-52', 52);
    const { crumbs, fills } = scriptDriveWithFills(early, shown, START_MS, other);
    expect(fills).toHaveLength(1);
    const [fill] = fills;
    expect(haversineMiles(fill as DriveFillPoint, other)).toBeLessThan(0.01);
    const atPumps = crumbs.filter((c) => c.phase === 'at_station');
    for (const crumb of atPumps) expect(haversineMiles(crumb, other)).toBeLessThan(0.05);
    expect(Math.min(...crumbs.map((c) => haversineMiles(c, shown)))).toBeGreaterThan(20);
    // 42 road miles then half a mile each way to the pumps, from the start level to the fill target.
    const percentPerMile = 100 / (early.mpg * early.tankGallons);
    const levelAtPumps = early.startFuelPercent - (52 - 10 + 0.5) * percentPerMile;
    const gallons = ((early.fillToPercent - levelAtPumps) / 100) * early.tankGallons;
    expect(Math.abs((fill?.gallons as number) - gallons)).toBeLessThan(0.2);
    expect(fill?.leftAtMs).toBe((fill?.arrivedAtMs as number) + early.dwellMinutes * 60_000);
    expect(fill?.leftAtMs).toBeGreaterThan((atPumps.at(-1)?.recordedAtMs as number) - 1);
  });

  it('with no other station on the corridor, fuels at the shown stop after all', () => {
    const past = { ...spec, behaviour: 'fuels_past_shown_stop' as const, otherStationMiles: 30 };
    const { fills } = scriptDriveWithFills(past, shown, START_MS, null);
    expect(fills).toHaveLength(1);
    expect(haversineMiles(fills[0] as DriveFillPoint, shown)).toBeLessThan(0.01);
  });
});

type DriveFillPoint = { latitude: number; longitude: number };

describe('deliveryPosts', () => {
  const group = (delivery: DriveGroup['delivery'], outOfOrder = false): DriveGroup => ({
    delivery,
    outOfOrder,
    lateByMinutes: 120,
    drives: [drives[0] as DriveSpec, drives[1] as DriveSpec],
  });
  const scripts = new Map([
    [0, driveWith('fuels_at_shown_stop', { index: 0, cadenceSeconds: 60 }).crumbs],
    [1, driveWith('passes_the_exit', { index: 1, cadenceSeconds: 120 }).crumbs],
  ]);
  const total = [...scripts.values()].reduce((sum, list) => sum + list.length, 0);
  const posted = (posts: ReturnType<typeof deliveryPosts>) => posts.flatMap((p) => p.items);

  it('live: each breadcrumb on its own, seconds after it was recorded', () => {
    const posts = deliveryPosts(group('live'), scripts, START_MS, 1);
    expect(posts).toHaveLength(total);
    for (const { postedAtMs, items } of posts) {
      const delay = postedAtMs - (items[0]?.crumb.recordedAtMs as number);
      expect(delay).toBeGreaterThan(0);
      expect(delay).toBeLessThanOrEqual(30_000);
    }
  });

  it('buffered: 29 minutes of every truck posted within a minute after the window, in order unless told', () => {
    const posts = deliveryPosts(group('buffered'), scripts, START_MS, 1);
    expect(posted(posts)).toHaveLength(total);
    for (const { postedAtMs, items } of posts) {
      const window = Math.floor((postedAtMs - START_MS) / BUFFER_WINDOW_MS);
      const windowEnd = START_MS + window * BUFFER_WINDOW_MS;
      expect(postedAtMs - windowEnd).toBeLessThan(60_000);
      for (const { crumb } of items) {
        expect(crumb.recordedAtMs).toBeLessThanOrEqual(windowEnd);
        expect(crumb.recordedAtMs).toBeGreaterThan(windowEnd - BUFFER_WINDOW_MS);
      }
      const times = items.map((i) => i.crumb.recordedAtMs);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
    expect(posts.some((p) => new Set(p.items.map((i) => i.drive)).size > 1)).toBe(true);
  });

  it('out of order: the same items, shuffled within a post', () => {
    const sorted = deliveryPosts(group('buffered'), scripts, START_MS, 1);
    const shuffled = deliveryPosts(group('buffered', true), scripts, START_MS, 1);
    const key = (item: { drive: number; crumb: DriveCrumb }) => `${item.crumb.recordedAtMs}/${item.drive}`;
    expect(posted(shuffled).map(key).sort()).toEqual(posted(sorted).map(key).sort());
    expect(
      shuffled.some((p) =>
        p.items.some(
          (item, i) => i > 0 && item.crumb.recordedAtMs < (p.items[i - 1]?.crumb.recordedAtMs as number),
        ),
      ),
    ).toBe(true);
  });

  it('hours late: everything after the drive’s end, by the delay drawn', () => {
    const posts = deliveryPosts(group('hours_late'), scripts, START_MS, 1);
    const last = Math.max(...posted(posts).map((i) => i.crumb.recordedAtMs));
    expect(posted(posts)).toHaveLength(total);
    for (const post of posts) expect(post.postedAtMs).toBeGreaterThanOrEqual(last + 120 * 60_000);
  });
});

describe('the fleet figures', () => {
  const spec = drives[0] as DriveSpec;
  const route = routeOf(spec);
  const stationAt = (mile: number, id: string): SeenStop => ({
    id,
    stationId: `stn_${id}`,
    ...pointAtMiles(route, mile),
  });
  const a = stationAt(spec.startMile + 30, 'a');
  const b = stationAt(spec.startMile + 60, 'b');
  const crumbAt = (mile: number, minutes: number): DriveCrumb => ({
    recordedAtMs: START_MS + minutes * 60_000,
    ...pointAtMiles(route, mile),
    fuelLevelPercent: 30,
    speedMph: 60,
    routeMile: mile,
    phase: 'road',
  });
  const outcome = (over: Partial<DriveOutcome>): DriveOutcome => ({
    spec,
    fleetId: 'flt_1',
    vehicleId: 'veh_1',
    guidanceId: 'gdn_1',
    shownAtStart: a,
    stopsAtStart: [],
    otherStation: null,
    fills: [],
    purchases: [],
    startMs: START_MS,
    crumbs: [crumbAt(spec.startMile + 60, 60)],
    events: [],
    sightings: [],
    deadLetters: [],
    ...over,
  });
  const sighting = (
    first: SeenStop | null,
    mile: number,
    active = true,
    over: Partial<Sighting> = {},
  ): Sighting => ({
    postedAtMs: START_MS,
    active,
    first,
    fuelPercent: 40,
    fillsDetected: 0,
    skippedStationIds: [],
    stops: [],
    latest: crumbAt(mile, 1),
    ...over,
  });
  const event = (type: string, data: Record<string, unknown>) =>
    ({ type, data, fleet_id: 'flt_1' }) as unknown as DriveOutcome['events'][number];

  it('counts a shown stop replaced before its exit, not one the truck has passed', () => {
    const replacedEarly = outcome({
      sightings: [sighting(a, spec.startMile + 5), sighting(b, spec.startMile + 10)],
    });
    expect(shownStopWithdrawals(replacedEarly).map((w) => w.stop.id)).toEqual(['a']);
    const passed = outcome({
      sightings: [sighting(a, spec.startMile + 5), sighting(b, spec.startMile + 31)],
    });
    expect(shownStopWithdrawals(passed)).toEqual([]);
    const ended = outcome({ sightings: [sighting(null, spec.startMile + 5, false)] });
    expect(shownStopWithdrawals(ended)).toEqual([]);
  });

  describe('the cause of a withdrawal', () => {
    // `a` is 30 road miles past the start; the truck's miles are its true position on the route.
    const near = spec.startMile + 30 - GUIDANCE_POLICY.commitmentFarMiles + 5;
    const far = spec.startMile + 30 - GUIDANCE_POLICY.commitmentFarMiles - 1;
    const fill = (startedMinutes: number, endedMinutes: number) =>
      event('fueling.recorded', {
        started_at: new Date(START_MS + startedMinutes * 60_000).toISOString(),
        fueled_at: new Date(START_MS + endedMinutes * 60_000).toISOString(),
      });
    const causes = (over: Partial<DriveOutcome>) => shownStopWithdrawals(outcome(over)).map((w) => w.cause);
    const withdrawnAt = (mile: number, minutes: number, over: Partial<Sighting> = {}) =>
      sighting(b, mile, true, { latest: crumbAt(mile, minutes), ...over });

    it('a fill since the stop was shown: after_fill, not while heading to it', () => {
      const afterFill = outcome({ sightings: [withdrawnAt(near, 20)], events: [fill(10, 18)] });
      expect(shownStopWithdrawals(afterFill).map((w) => w.cause)).toEqual(['after_fill']);
      expect(fleetFigures([afterFill])).toMatchObject({
        guidance_shown_stop_withdrawals_per_100: 0,
        guidance_shown_stop_withdrawals_after_fill_per_100: 100,
      });
      // A fill still under way when the stop was shown counts; one begun after the withdrawal's
      // newest breadcrumb, or ended before the stop was shown, does not.
      const shownMidFill = outcome({
        shownAtStart: null,
        sightings: [sighting(a, near - 1, true, { latest: crumbAt(near - 1, 12) }), withdrawnAt(near, 20)],
        events: [fill(10, 18)],
      });
      expect(shownStopWithdrawals(shownMidFill).map((w) => w.cause)).toEqual(['after_fill']);
      expect(causes({ sightings: [withdrawnAt(near, 20)], events: [fill(25, 30)] })).toEqual(['other']);
      const shownAfterFill = outcome({
        shownAtStart: null,
        sightings: [sighting(a, near - 1, true, { latest: crumbAt(near - 1, 12) }), withdrawnAt(near, 20)],
        events: [fill(5, 11)],
      });
      expect(shownStopWithdrawals(shownAfterFill).map((w) => w.cause)).toEqual(['other']);
      // The same fill, recorded by detection only after the stop was shown (the next stop of the
      // plan made before it, shown as the truck left the pumps): after_fill.
      const detectedAfterShown = outcome({
        shownAtStart: null,
        sightings: [
          sighting(a, near - 1, true, { latest: crumbAt(near - 1, 12) }),
          withdrawnAt(near, 20, { fillsDetected: 1 }),
        ],
        events: [fill(5, 11)],
      });
      expect(shownStopWithdrawals(detectedAfterShown).map((w) => w.cause)).toEqual(['after_fill']);
    });

    it('a stop skipped, or out of reach with the kept share of the reserve: unusable', () => {
      expect(causes({ sightings: [withdrawnAt(near, 20, { skippedStationIds: [a.stationId] })] })).toEqual([
        'unusable',
      ]);
      // The gallons left at the stop's exit and back from its detour, against the reserve's kept share.
      const kept = DEFAULT_RESERVE_FRACTION * spec.tankGallons * GUIDANCE_POLICY.commitmentReserveShare;
      const milesToStop = spec.startMile + 30 - near + projectOntoRoute(route, a).offRouteMiles;
      const percentFor = (gallonsAtStop: number) =>
        ((gallonsAtStop + milesToStop / spec.mpg) / spec.tankGallons) * 100;
      expect(causes({ sightings: [withdrawnAt(near, 20, { fuelPercent: percentFor(kept - 0.5) })] })).toEqual(
        ['unusable'],
      );
      expect(causes({ sightings: [withdrawnAt(near, 20, { fuelPercent: percentFor(kept + 0.5) })] })).toEqual(
        ['other'],
      );
    });

    it('a stop more than the commitment distance out: far_better_plan; nearer, other', () => {
      const farOut = outcome({ sightings: [withdrawnAt(far, 20)] });
      expect(shownStopWithdrawals(farOut)).toEqual([
        expect.objectContaining({ cause: 'far_better_plan', stop: a, replacedBy: b, milesAhead: 31 }),
      ]);
      const nearer = outcome({ sightings: [withdrawnAt(near, 20)] });
      expect(shownStopWithdrawals(nearer)).toEqual([
        expect.objectContaining({ cause: 'other', milesAhead: 25 }),
      ]);
      expect(fleetFigures([farOut, nearer])).toMatchObject({
        guidance_shown_stop_withdrawals_per_100: 100,
        guidance_shown_stop_withdrawals_far_better_plan_per_100: 50,
        guidance_shown_stop_withdrawals_other_per_100: 50,
        guidance_shown_stop_withdrawals_unusable_per_100: 0,
        guidance_shown_stop_withdrawals_after_fill_per_100: 0,
      });
    });
  });

  it('counts updates after the session’s announcement per hour of recorded time', () => {
    const updates = ['created', 'refreshed', 'refreshed', 'cleared'].map((change) =>
      event('guidance.updated', { change }),
    );
    expect(updatesPerHour(outcome({ events: updates }))).toBe(3);
  });

  it('reports the share of fills at shown stops matched to them, and withdrawals per 100 drives', () => {
    const near = stationAt(spec.startMile + 20, 'near');
    const fueled = { ...spec, behaviour: 'fuels_at_shown_stop' as const };
    const matched = outcome({
      spec: fueled,
      shownAtStart: near,
      events: [event('fueling.matched', { station_id: near.stationId })],
    });
    const unmatched = outcome({
      spec: fueled,
      shownAtStart: near,
      sightings: [sighting(near, spec.startMile + 5), sighting(b, spec.startMile + 10)],
    });
    expect(fleetFigures([matched, unmatched])).toMatchObject({
      guidance_fills_at_shown_stops_matched_percent: 50,
      guidance_shown_stop_withdrawals_per_100: 50,
      guidance_fleet_fills_at_shown_stops: 2,
      guidance_fleet_drives: 2,
    });
  });
});
