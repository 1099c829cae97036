import { describe, expect, it } from 'vitest';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { SHIPPED_FUEL_TAX_TABLE } from '#shared/fuel-tax/domain/state-diesel-tax.ts';
import { GUIDANCE_POLICY } from '#shared/guidance/domain/policy.ts';
import { replanBeforeRouting, replanOnRoute } from '#shared/guidance/domain/replan-policy.ts';
import { type GuidanceSession, type GuidanceStop, startSession } from '#shared/guidance/domain/session.ts';
import type { VehicleSnapshot } from '#shared/guidance/domain/snapshot.ts';
import { type ApproachGeometry, approachTo } from '#shared/guidance/domain/stop-approach.ts';
import { type GeoPoint, haversineMiles } from '#shared/kernel/distance.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import { matchShownStop, watchedShownStops } from '#shared/tracking/domain/shown-stops.ts';
import { advanceTracker, currentStop, initialTrackerState } from '#shared/tracking/domain/tracker.ts';
import { Breadcrumbs, contextWith, destination, T0, watchedStop } from '../tracking/breadcrumbs.ts';

/**
 * A route due north along one meridian (1 mile of latitude ≈ 1 road mile), and a station 1.4 miles
 * east of its point at mile 100, as "Independent Denton (I-35)" lies off I-35.
 */
const ROUTE_START: GeoPoint = { latitude: 32, longitude: -97.1 };
const onRoute = (miles: number) => destination(ROUTE_START, 0, miles);
const STATION_MILE = 100;
const STATION = destination(onRoute(STATION_MILE), 90, 1.4);
const NOW = T0 + 3_600_000;
/** Every station here is in Texas: one tax for all, so the credit changes no choice. */
const PRICING = { taxes: SHIPPED_FUEL_TAX_TABLE, treatment: 'ifta' as const };
const FLEET = 'flt_1';

const stop = (overrides: Partial<GuidanceStop> = {}): GuidanceStop => ({
  id: 'gds_denton',
  stationId: 'stn_denton',
  name: 'Independent Denton (I-35)',
  chain: 'Independent',
  ...STATION,
  address: '',
  milesAhead: 9.9,
  detourMiles: 2.8,
  gallonsToBuy: 76,
  price: 3.4,
  discount: 0,
  netPrice: 3.4,
  priceIsStale: false,
  reason: 'cheapest',
  recommendedAtMs: NOW - 30 * 60_000,
  acknowledgedAtMs: null,
  ...overrides,
});

/** Road miles along the (meridian) route of a point's foot. */
const progressOf = (p: GeoPoint) => haversineMiles(ROUTE_START, { ...p, longitude: ROUTE_START.longitude });

/** The geometry of a vehicle at `position`, with its foot on the route at `progress`. */
const geometry = (
  position: GeoPoint,
  previousPosition: GeoPoint | null,
  progress: number,
): ApproachGeometry => ({
  position,
  previousPosition,
  progressMiles: progress,
  vehicleOffRouteMiles: haversineMiles(position, onRoute(progress)),
  stationMilesAlongRoute: STATION_MILE,
  stationOffRouteMiles: 1.4,
  previousProgressMiles: previousPosition ? progressOf(previousPosition) : null,
});

describe('heading to a recommended stop (approachTo)', () => {
  it('is at the station within its radius, whatever the route says', () => {
    const inTheLot = destination(STATION, 200, 0.3);
    expect(
      approachTo(stop(), { ...geometry(inTheLot, null, STATION_MILE), stationMilesAlongRoute: null }),
    ).toBe('at_station');
  });

  it('follows the exit ramp and the surface road: off the route, level with or past the station’s point, closing in', () => {
    const ramp = destination(onRoute(STATION_MILE + 0.4), 90, 0.2);
    const surface = destination(onRoute(STATION_MILE + 0.4), 80, 0.9);
    expect(approachTo(stop(), geometry(ramp, onRoute(STATION_MILE - 0.6), STATION_MILE + 0.4))).toBe(
      'heading_there',
    );
    expect(approachTo(stop(), geometry(surface, ramp, STATION_MILE + 0.4))).toBe('heading_there');
    // Waiting at a light on the way: the distance does not grow.
    expect(approachTo(stop(), geometry(surface, surface, STATION_MILE + 0.4))).toBe('heading_there');
  });

  it('lets go of a truck that stays on the interstate past the exit, at the breadcrumb after the one that crossed it', () => {
    const past = onRoute(STATION_MILE + 1);
    expect(approachTo(stop(), geometry(past, onRoute(STATION_MILE), STATION_MILE + 1))).toBe('heading_there');
    const next = onRoute(STATION_MILE + 2);
    expect(approachTo(stop(), geometry(next, past, STATION_MILE + 2))).toBeNull();
    const farPast = onRoute(STATION_MILE + GUIDANCE_POLICY.approachPassedMaxMiles + 0.5);
    expect(approachTo(stop(), geometry(farPast, onRoute(STATION_MILE + 2.5), STATION_MILE + 2))).toBeNull();
  });

  it('lets go of a truck driving away, too far off the route, or still well before the station’s point', () => {
    // Turned back on the surface road and on the interstate again past the station's point.
    const surface = destination(onRoute(STATION_MILE + 0.4), 80, 0.7);
    const backOn = onRoute(STATION_MILE + 0.6);
    expect(approachTo(stop(), geometry(backOn, surface, STATION_MILE + 0.6))).toBeNull();
    const elsewhere = destination(onRoute(STATION_MILE), 270, 1.5);
    expect(approachTo(stop(), geometry(elsewhere, onRoute(STATION_MILE - 1), STATION_MILE))).toBeNull();
    const before = onRoute(STATION_MILE - 5);
    expect(approachTo(stop(), geometry(before, onRoute(STATION_MILE - 6), STATION_MILE - 5))).toBeNull();
    // Nothing to compare with: not heading (unless at the station).
    expect(approachTo(stop(), geometry(onRoute(STATION_MILE), null, STATION_MILE))).toBeNull();
  });
});

describe('heading to a stop: what one breadcrumb or one cycle must not decide', () => {
  it('holds off the route without a closing test: a GPS jump, a loop ramp, a surface road bending away', () => {
    const surface = destination(onRoute(STATION_MILE + 0.4), 80, 0.9);
    // A jump of ~150 m away from the station between two cycles.
    const jumped = destination(surface, 270, 0.1);
    expect(approachTo(stop(), geometry(jumped, surface, STATION_MILE + 0.3))).toBe('heading_there');
    // A loop ramp past the station's point, swinging away from the station before coming back.
    const loop = destination(onRoute(STATION_MILE + 0.9), 90, 0.15);
    const loopFar = destination(onRoute(STATION_MILE + 1.1), 100, 0.25);
    expect(approachTo(stop(), geometry(loopFar, loop, STATION_MILE + 1.1))).toBe('heading_there');
    // No previous cycle at all: off the route in the box is enough.
    expect(approachTo(stop(), geometry(surface, null, STATION_MILE + 0.4))).toBe('heading_there');
  });

  it('holds a batched cycle that went from the interstate to the surface road in one step', () => {
    const surface = destination(onRoute(STATION_MILE + 0.4), 80, 0.5);
    expect(approachTo(stop(), geometry(surface, onRoute(STATION_MILE - 3), STATION_MILE + 0.4))).toBe(
      'heading_there',
    );
  });

  it('lets go of a truck standing still on the interstate past the station’s point (a jam)', () => {
    for (const past of [0.3, 1.2]) {
      const here = onRoute(STATION_MILE + past);
      expect(approachTo(stop(), geometry(here, here, STATION_MILE + past))).toBeNull();
    }
  });

  it('holds the first cycle just past the point on the route (an exit there looks like the interstate), not the second', () => {
    const exit = onRoute(STATION_MILE + 0.4);
    expect(approachTo(stop(), geometry(exit, onRoute(STATION_MILE), STATION_MILE + 0.4))).toBe(
      'heading_there',
    );
    const further = onRoute(STATION_MILE + 0.45);
    expect(approachTo(stop(), geometry(further, exit, STATION_MILE + 0.45))).toBeNull();
  });

  it('holds the breadcrumb whose segment crosses the point, however far one breadcrumb took it, and lets the next one decide', () => {
    const past = onRoute(STATION_MILE + 1.2);
    expect(approachTo(stop(), geometry(past, onRoute(STATION_MILE - 3), STATION_MILE + 1.2))).toBe(
      'heading_there',
    );
    expect(approachTo(stop(), geometry(onRoute(STATION_MILE + 6), past, STATION_MILE + 6))).toBeNull();
    // Farther than one breadcrumb's travel at the slowest cadence: nobody is on a ramp there.
    const beyond = STATION_MILE + GUIDANCE_POLICY.approachCrossingMaxMiles + 0.5;
    expect(approachTo(stop(), geometry(onRoute(beyond), onRoute(STATION_MILE - 1), beyond))).toBeNull();
  });

  it('on the route, needs real movement towards the station, not just a distance that does not grow', () => {
    const exit = onRoute(STATION_MILE + 0.4);
    const crept = onRoute(STATION_MILE + 0.39);
    expect(approachTo(stop(), geometry(exit, crept, STATION_MILE + 0.4))).toBeNull();
    expect(approachTo(stop(), geometry(exit, onRoute(STATION_MILE - 0.6), STATION_MILE + 0.4))).toBe(
      'heading_there',
    );
  });

  it('lets go of a truck on the other side of the route, beyond the interchange’s ramps, even closing in', () => {
    const west = destination(onRoute(STATION_MILE - 0.5), 270, 0.8);
    const westCloser = destination(onRoute(STATION_MILE), 270, 0.6);
    expect(approachTo(stop(), geometry(westCloser, west, STATION_MILE))).toBeNull();
    // The far-side ramp of the interchange, crossing over to the station: held.
    const farRamp = destination(onRoute(STATION_MILE + 0.3), 270, 0.2);
    expect(approachTo(stop(), geometry(farRamp, onRoute(STATION_MILE - 0.7), STATION_MILE + 0.3))).toBe(
      'heading_there',
    );
  });

  it('is not at the recommended station when nearer to another one at the same interchange', () => {
    // A Love's 0.2 mi from the recommended station; the truck at its pumps, 0.3 mi from ours.
    const atNeighbour = destination(STATION, 270, 0.3);
    const g = { ...geometry(atNeighbour, atNeighbour, STATION_MILE), stationMilesAlongRoute: null };
    expect(approachTo(stop(), { ...g, nearestOtherStationMiles: 0.1 })).toBeNull();
    expect(approachTo(stop(), { ...g, nearestOtherStationMiles: 0.4 })).toBe('at_station');
  });
});

const station = (id: string, at: GeoPoint, price: number): Station => ({
  id,
  name: id,
  chain: 'Independent',
  ...at,
  address: '',
  state: 'TX',
  amenities: [],
  fuels: ['diesel'],
  dieselPriceUsdPerGallon: price,
  priceUpdatedAtMs: NOW,
});

/** The session as it was when the truck was 1 mile before the station's point: approaching it. */
const approaching = (): GuidanceSession => ({
  ...startSession({
    id: 'gd_1',
    vehicleId: 'veh_1',
    destination: { ...onRoute(600), name: 'Far away' },
    minArrivalFuelPercent: 15,
    nowMs: NOW - 3_600_000,
  }),
  phase: 'approaching_stop',
  stops: [stop({ milesAhead: 1 })],
  revision: 2,
  announced: [{ stationId: 'stn_denton', gallonsToBuy: 76, netPrice: 3.4 }],
  approachedStopIds: ['gds_denton'],
  position: { ...onRoute(STATION_MILE - 1), recordedAtMs: NOW - 60_000 },
});

const snapshotAt = (position: GeoPoint, overrides: Partial<VehicleSnapshot> = {}): VehicleSnapshot => ({
  vehicle: { id: 'veh_1', tankSizeGallons: 150, estimatedMpg: 6.5 },
  position: { ...position, recordedAtMs: NOW },
  fuel: { percent: 36, source: 'reported', reportedAtMs: NOW },
  dwellingAtStationId: null,
  ...overrides,
});

const corridor = [
  { station: station('stn_denton', STATION, 3.4), milesAlongRoute: STATION_MILE, offRouteMiles: 1.4 },
  {
    station: station('stn_later', destination(onRoute(143), 90, 0.2), 3.3),
    milesAlongRoute: 143,
    offRouteMiles: 0.2,
  },
  {
    station: station('stn_far', destination(onRoute(400), 90, 0.2), 3.3),
    milesAlongRoute: 400,
    offRouteMiles: 0.2,
  },
];

function replanAt(
  session: GuidanceSession,
  position: GeoPoint,
  progress: number,
  overrides: Partial<VehicleSnapshot> = {},
  stations: typeof corridor = corridor,
) {
  const step = replanBeforeRouting(FLEET, session, snapshotAt(position, overrides), NOW);
  if (step.kind !== 'route_needed') throw new Error('expected the route to be needed');
  return replanOnRoute(
    FLEET,
    session,
    step,
    {
      corridor: stations,
      distanceMiles: 600,
      progressMiles: progress,
      vehicleOffRouteMiles: haversineMiles(position, onRoute(progress)),
      previousProgressMiles: session.position ? progressOf(session.position) : null,
      program: NO_FUEL_PROGRAM,
      pricing: PRICING,
    },
    NOW,
  );
}

describe('heading to a stop, breadcrumb by breadcrumb (62 mph, one a minute: a mile apart)', () => {
  type Crumb = { point: GeoPoint; progress: number };
  const crumbOnRoute = (miles: number): Crumb => ({ point: onRoute(miles), progress: miles });
  const crumbOff = (miles: number, bearing: number, off: number): Crumb => ({
    point: destination(onRoute(miles), bearing, off),
    progress: miles,
  });
  /** approachTo at each breadcrumb, against the one before it. */
  const judged = (crumbs: readonly Crumb[]) =>
    crumbs.slice(1).map((crumb, i) => {
      const previous = crumbs[i] as Crumb;
      return approachTo(stop(), geometry(crumb.point, previous.point, crumb.progress));
    });

  it('keeps the stop for a truck exiting just after the point: the last interstate breadcrumb 0.7 mi past it', () => {
    const exiting = [
      crumbOnRoute(STATION_MILE - 1.33),
      crumbOnRoute(STATION_MILE - 0.3),
      crumbOnRoute(STATION_MILE + 0.7),
      // The ramp swings east and the surface road runs back to the station.
      crumbOff(STATION_MILE + 0.9, 90, 0.3),
      crumbOff(STATION_MILE + 0.4, 90, 1.0),
      { point: destination(STATION, 200, 0.2), progress: STATION_MILE },
    ];
    // Within a mile of the point and closing in, the interstate breadcrumb before it counts too.
    expect(judged(exiting)).toEqual([
      'heading_there',
      'heading_there',
      'heading_there',
      'heading_there',
      'at_station',
    ]);
  });

  it('lets go of a truck passing the exit at the next breadcrumb, and of one that stops on the interstate past it', () => {
    const passing = [
      crumbOnRoute(STATION_MILE - 0.3),
      crumbOnRoute(STATION_MILE + 0.7),
      crumbOnRoute(STATION_MILE + 1.73),
    ];
    expect(judged(passing)).toEqual(['heading_there', null]);
    const jam = [
      crumbOnRoute(STATION_MILE - 0.3),
      crumbOnRoute(STATION_MILE + 0.7),
      crumbOnRoute(STATION_MILE + 0.7),
    ];
    expect(judged(jam)).toEqual(['heading_there', null]);
  });

  it('lets go of a truck that exits and turns back onto the interstate, heading on', () => {
    const turnsBack = [
      crumbOnRoute(STATION_MILE - 0.3),
      crumbOff(STATION_MILE + 0.5, 90, 0.3),
      crumbOnRoute(STATION_MILE + 1.2),
      crumbOnRoute(STATION_MILE + 2.2),
    ];
    expect(judged(turnsBack)).toEqual(['heading_there', null, null]);
  });

  it('holds a truck creeping up the ramp beside the interstate (closing in), and a slow cadence that crossed far past', () => {
    const ramp = [
      crumbOnRoute(STATION_MILE - 0.5),
      crumbOnRoute(STATION_MILE + 0.6),
      // Still within the route line's width, but nearer the station each time.
      { point: destination(onRoute(STATION_MILE + 0.65), 90, 0.09), progress: STATION_MILE + 0.65 },
    ];
    expect(judged(ramp)).toEqual(['heading_there', 'heading_there']);
    // Five minutes a breadcrumb: 4.5 mi past on the interstate, then 9.5.
    expect(
      judged([
        crumbOnRoute(STATION_MILE - 0.7),
        crumbOnRoute(STATION_MILE + 4.5),
        crumbOnRoute(STATION_MILE + 9.5),
      ]),
    ).toEqual(['heading_there', null]);
  });
});

describe('the plan while the truck heads to its stop', () => {
  it('keeps the stop when the truck, off the route towards it, projects past the station’s point', () => {
    const ramp = destination(onRoute(STATION_MILE + 0.4), 90, 0.3);
    const update = replanAt(approaching(), ramp, STATION_MILE + 0.4);
    expect(update.session.phase).toBe('approaching_stop');
    expect(update.session.stops.map((s) => [s.stationId, s.milesAhead])).toEqual([['stn_denton', 0]]);
    expect(update.events).toEqual([]);
  });

  it('keeps the stop through a GPS jump away from the station on the surface road', () => {
    const surface = destination(onRoute(STATION_MILE + 0.4), 80, 0.9);
    const session = { ...approaching(), position: { ...surface, recordedAtMs: NOW - 60_000 } };
    const jumped = destination(surface, 260, 0.1);
    const update = replanAt(session, jumped, STATION_MILE + 0.35);
    expect(update.session.stops.map((s) => s.stationId)).toEqual(['stn_denton']);
    expect(update.session.phase).toBe('approaching_stop');
  });

  it('drops it for a truck that stayed on the interstate, at the breadcrumb after the crossing, and plans from there', () => {
    const crossing = {
      ...approaching(),
      position: { ...onRoute(STATION_MILE), recordedAtMs: NOW - 120_000 },
    };
    const held = replanAt(crossing, onRoute(STATION_MILE + 1), STATION_MILE + 1);
    expect(held.session.stops.map((s) => s.stationId)).toEqual(['stn_denton']);
    const session = {
      ...approaching(),
      position: { ...onRoute(STATION_MILE + 1), recordedAtMs: NOW - 60_000 },
    };
    const update = replanAt(session, onRoute(STATION_MILE + 2), STATION_MILE + 2);
    expect(update.session.stops.map((s) => s.stationId)).not.toContain('stn_denton');
    expect(update.session.stops[0]?.stationId).toBe('stn_later');
    expect(update.events.map((e) => e.data.change)).toEqual(['refreshed']);
  });

  it('plans afresh after a departure, without the station just left, even if its point is still ahead', () => {
    const leaving = destination(onRoute(STATION_MILE - 0.2), 90, 0.6);
    const session = {
      ...approaching(),
      phase: 'at_stop' as const,
      position: { ...STATION, recordedAtMs: NOW - 60_000 },
    };
    const update = replanAt(session, leaving, STATION_MILE - 0.2, {
      fuel: { percent: 87, source: 'reported', reportedAtMs: NOW },
      leftStationIds: ['stn_denton'],
    });
    expect(update.session.stops.map((s) => s.stationId)).not.toContain('stn_denton');
    expect(update.session.fuel?.percent).toBe(87);
  });

  it('keeps none of the old stops after a departure: they were planned for the level before the fill', () => {
    const cheaper = {
      station: station('stn_cheaper', destination(onRoute(150), 90, 0.2), 3.28),
      milesAlongRoute: 150,
      offRouteMiles: 0.2,
    };
    const session = {
      ...approaching(),
      phase: 'at_stop' as const,
      stops: [stop({ milesAhead: 0 }), stop({ id: 'gds_later', stationId: 'stn_later', milesAhead: 43 })],
      position: { ...STATION, recordedAtMs: NOW - 60_000 },
    };
    const leaving = destination(onRoute(STATION_MILE - 0.2), 90, 0.6);
    const at = (ids: string[]) =>
      replanAt(
        session,
        leaving,
        STATION_MILE - 0.2,
        { fuel: { percent: 45, source: 'reported', reportedAtMs: NOW }, leftStationIds: ids },
        [...corridor, cheaper],
      ).session.stops.map((s) => s.stationId);
    // Without a departure the old stop is kept within stickiness (a few cents dearer)…
    expect(at([])).toContain('stn_later');
    // …after one, the plan is fresh: the cheapest station, not the one kept from before the fill.
    expect(at(['stn_denton'])).not.toContain('stn_later');
    expect(at(['stn_denton'])).toContain('stn_cheaper');
  });

  it('replans at once after a skip, even at the station', () => {
    const update = replanAt({ ...approaching(), forceReplan: true }, STATION, STATION_MILE);
    expect(update.session.forceReplan).toBe(false);
    expect(update.session.planUpdatedAtMs).toBe(NOW);
  });
});

describe('arrival and departure at the station’s own position', () => {
  it('arrives, fuels (matched to the stop) and departs at a station 1.4 miles off the route', () => {
    const watched = watchedStop('gds_denton', STATION);
    const exit = onRoute(STATION_MILE + 0.4);
    const drive = new Breadcrumbs(onRoute(STATION_MILE - 10), NOW - 20 * 60_000)
      .driveTo(exit, { speedMph: 60, level: 37 })
      .driveTo(STATION, { speedMph: 30, level: 36 })
      .park({ minutes: 14, level: (i) => Math.min(87, 36 + Math.max(0, i - 3) * 8) })
      .driveTo(exit, { speedMph: 30, level: 86 })
      .drive({ minutes: 3, speedMph: 60, level: 86 });
    const { state, detections } = advanceTracker(initialTrackerState(), drive.fixes, contextWith([watched]));
    expect(detections.map((d) => d.kind)).toEqual(['stop_arrived', 'fueling', 'stop_departed']);
    const arrived = detections[0];
    if (arrived?.kind !== 'stop_arrived') throw new Error('expected an arrival');
    expect(haversineMiles(arrived, STATION)).toBeLessThanOrEqual(0.25);
    expect(currentStop(state)).toBeNull();
    const fueling = detections[1];
    if (fueling?.kind !== 'fueling') throw new Error('expected a fueling');
    // Matched by the station's position, 1.4 miles from the route, not by the route.
    const session = { ...approaching(), stops: [stop()] };
    expect(matchShownStop(watchedShownStops([], session, NOW), fueling)?.stop.id).toBe('gds_denton');
    const atRoutePoint = { ...session, stops: [stop({ ...onRoute(STATION_MILE) })] };
    expect(matchShownStop(watchedShownStops([], atRoutePoint, NOW), fueling)).toBeNull();
  });

  it('never arrives at the route’s point next to the station: only the station counts', () => {
    const watched = watchedStop('gds_denton', STATION);
    const drive = new Breadcrumbs(onRoute(STATION_MILE - 2), NOW)
      .driveTo(onRoute(STATION_MILE), { speedMph: 60, level: 40 })
      .park({ minutes: 10, level: 40 });
    const { detections } = advanceTracker(initialTrackerState(), drive.fixes, contextWith([watched]));
    expect(detections.filter((d) => d.kind === 'stop_arrived')).toEqual([]);
  });
});
