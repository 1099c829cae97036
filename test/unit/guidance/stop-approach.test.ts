import { describe, expect, it } from 'vitest';
import { matchStop } from '../../../shared/domain/guidance/fueling-match.ts';
import { GUIDANCE_POLICY } from '../../../shared/domain/guidance/policy.ts';
import { replanBeforeRouting, replanOnRoute } from '../../../shared/domain/guidance/replan-policy.ts';
import {
  type GuidanceSession,
  type GuidanceStop,
  startSession,
} from '../../../shared/domain/guidance/session.ts';
import type { VehicleSnapshot } from '../../../shared/domain/guidance/snapshot.ts';
import { type ApproachGeometry, approachTo } from '../../../shared/domain/guidance/stop-approach.ts';
import type { Station } from '../../../shared/domain/stations/station.ts';
import {
  advanceTracker,
  currentStop,
  initialTrackerState,
} from '../../../shared/domain/telematics/tracker.ts';
import { type GeoPoint, haversineMiles } from '../../../shared/geo/distance.ts';
import { Breadcrumbs, contextWith, destination, T0, watchedStop } from '../telematics/breadcrumbs.ts';

/**
 * A route due north along one meridian (1 mile of latitude ≈ 1 road mile), and a station 1.4 miles
 * east of its point at mile 100, as "Independent Denton (I-35)" lies off I-35.
 */
const ROUTE_START: GeoPoint = { latitude: 32, longitude: -97.1 };
const onRoute = (miles: number) => destination(ROUTE_START, 0, miles);
const STATION_MILE = 100;
const STATION = destination(onRoute(STATION_MILE), 90, 1.4);
const NOW = T0 + 3_600_000;
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

  it('lets go of a truck that stays on the interstate past the exit', () => {
    const past = onRoute(STATION_MILE + 1);
    expect(approachTo(stop(), geometry(past, onRoute(STATION_MILE), STATION_MILE + 1))).toBeNull();
    const farPast = onRoute(STATION_MILE + GUIDANCE_POLICY.approachPassedMaxMiles + 0.5);
    expect(approachTo(stop(), geometry(farPast, onRoute(STATION_MILE + 2.5), STATION_MILE + 2))).toBeNull();
  });

  it('lets go of a truck driving away, too far off the route, or still well before the station’s point', () => {
    const surface = destination(onRoute(STATION_MILE), 90, 0.8);
    const backOut = destination(onRoute(STATION_MILE), 90, 0.4);
    expect(approachTo(stop(), geometry(backOut, surface, STATION_MILE))).toBeNull();
    const elsewhere = destination(onRoute(STATION_MILE), 270, 1.5);
    expect(approachTo(stop(), geometry(elsewhere, onRoute(STATION_MILE - 1), STATION_MILE))).toBeNull();
    const before = onRoute(STATION_MILE - 5);
    expect(approachTo(stop(), geometry(before, onRoute(STATION_MILE - 6), STATION_MILE - 5))).toBeNull();
    // Nothing to compare with: not heading (unless at the station).
    expect(approachTo(stop(), geometry(onRoute(STATION_MILE), null, STATION_MILE))).toBeNull();
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
      discounts: {},
    },
    NOW,
  );
}

describe('the plan while the truck heads to its stop', () => {
  it('keeps the stop when the truck, off the route towards it, projects past the station’s point (issue 10)', () => {
    const ramp = destination(onRoute(STATION_MILE + 0.4), 90, 0.3);
    const update = replanAt(approaching(), ramp, STATION_MILE + 0.4);
    expect(update.session.phase).toBe('approaching_stop');
    expect(update.session.stops.map((s) => [s.stationId, s.milesAhead])).toEqual([['stn_denton', 0]]);
    expect(update.events).toEqual([]);
  });

  it('drops it for a truck that stayed on the interstate, and plans from there', () => {
    const session = { ...approaching(), position: { ...onRoute(STATION_MILE), recordedAtMs: NOW - 60_000 } };
    const update = replanAt(session, onRoute(STATION_MILE + 1), STATION_MILE + 1);
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
    expect(matchStop(session, fueling)?.id).toBe('gds_denton');
    expect(matchStop({ ...session, stops: [stop({ ...onRoute(STATION_MILE) })] }, fueling)).toBeNull();
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
