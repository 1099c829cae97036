import { describe, expect, it } from 'vitest';
import {
  computeEmbeddedRoute,
  LOCAL_CIRCUITY_FACTOR,
  TURNAROUND_MILES_EACH_WAY,
  TURNAROUND_PLACE,
} from '#shared/geo/embedded-router.ts';
import { decodeRoutePolyline } from '#shared/geo/polyline.ts';
import { roadMilesAlong } from '#shared/geo/road-miles.ts';
import { ON_ROAD_MAX_OFFSET_MILES } from '#shared/geo/road-snap.ts';
import { pointAtMiles } from '#shared/geo/route-line.ts';
import { projectOntoRoute } from '#shared/geo/route-projection.ts';
import type { RouteResult } from '#shared/geo/routing-engine.ts';
import { bearingDegrees, type GeoPoint, haversineMiles } from '#shared/kernel/distance.ts';
import { place } from './support.ts';

/**
 * A truck `miles` road miles along the route from node `from` to node `to`, with the heading of
 * that route there (the direction a truck driving it travels).
 */
function truckOnRoute(from: string, to: string, miles: number) {
  const route = computeEmbeddedRoute({ origin: place(from), destination: place(to) });
  const position = pointAtMiles(route, miles);
  const heading = bearingDegrees(position, pointAtMiles(route, miles + 1));
  return { route, position, heading, reverse: (heading + 180) % 360 };
}

/** The invariants every route keeps: legs add up, the line ends at the distance, the polyline reads back. */
function expectConsistent(route: RouteResult): void {
  expect(route.legs.reduce((sum, leg) => sum + leg.miles, 0)).toBeCloseTo(route.distanceMiles, 0);
  for (const [i, leg] of route.legs.entries()) {
    const before = route.legs.slice(0, i).reduce((sum, previous) => sum + previous.miles, 0);
    expect(Math.abs(leg.startMiles - before)).toBeLessThanOrEqual(0.1 + 1e-9);
  }
  expect(route.cumulativeMiles[0]).toBe(0);
  expect(route.cumulativeMiles.at(-1)).toBeCloseTo(route.distanceMiles, 1);
  expect(decodeRoutePolyline(route.polyline)).toEqual(route.points);
  const read = roadMilesAlong(route.points);
  read.cumulativeMiles.forEach((miles, i) => {
    expect(Math.abs(miles - (route.cumulativeMiles[i] as number))).toBeLessThanOrEqual(0.01 + 1e-9);
  });
}

describe('embedded router: a truck between junctions goes on the way it is heading', () => {
  it('I-35 5.5 miles north of Dallas, northbound to Denver: no U-turn, the road ahead only', () => {
    // Prepare
    const truck = truckOnRoute('dallas-tx', 'denver-co', 5.5);

    // Act
    const route = computeEmbeddedRoute({
      origin: truck.position,
      destination: place('denver-co'),
      originHeadingDegrees: truck.heading,
    });

    // Assess: 894 from downtown, 888.5 from here; no local leg back to Dallas.
    expect(route.distanceMiles).toBeCloseTo(truck.route.distanceMiles - 5.5, 1);
    expect(route.legs[0]).toMatchObject({ kind: 'interstate', road: 'I-35', from: 'origin', startMiles: 0 });
    expect(projectOntoRoute(route, place('dallas-tx')).offRouteMiles).toBeGreaterThan(4);
    expectConsistent(route);
  });

  it('I-35 5.5 miles north of Dallas, southbound to Denver: turns at the next exit, then back north', () => {
    // Prepare
    const truck = truckOnRoute('dallas-tx', 'denver-co', 5.5);

    // Act
    const route = computeEmbeddedRoute({
      origin: truck.position,
      destination: place('denver-co'),
      originHeadingDegrees: truck.reverse,
    });

    // Assess: 3 miles on south and 3 back, cheaper than on to Dallas and back (11); never a local
    // road, and the legs show the turn.
    const turn = 2 * TURNAROUND_MILES_EACH_WAY;
    expect(route.distanceMiles).toBeCloseTo(truck.route.distanceMiles - 5.5 + turn, 1);
    expect(route.legs.every((leg) => leg.kind === 'interstate')).toBe(true);
    expect(route.legs.slice(0, 2)).toEqual([
      expect.objectContaining({
        road: 'I-35',
        from: 'origin',
        to: TURNAROUND_PLACE,
        miles: 3,
        startMiles: 0,
      }),
      expect.objectContaining({ road: 'I-35', from: TURNAROUND_PLACE, to: 'Wichita, KS', startMiles: 3 }),
    ]);
    expect(projectOntoRoute(route, place('dallas-tx')).offRouteMiles).toBeGreaterThan(1);
    expectConsistent(route);
  });

  it('I-35 2 miles north of Dallas, southbound to Denver: the junction ahead comes before an exit, so it turns there', () => {
    // Prepare
    const truck = truckOnRoute('dallas-tx', 'denver-co', 2);

    // Act
    const route = computeEmbeddedRoute({
      origin: truck.position,
      destination: place('denver-co'),
      originHeadingDegrees: truck.reverse,
    });

    // Assess
    expect(route.distanceMiles).toBeCloseTo(truck.route.distanceMiles + 2, 1);
    expect(route.legs.slice(0, 2)).toEqual([
      expect.objectContaining({ road: 'I-35', from: 'origin', to: 'Dallas, TX', miles: 2, startMiles: 0 }),
      expect.objectContaining({ road: 'I-35', from: 'Dallas, TX', to: 'Wichita, KS', startMiles: 2 }),
    ]);
    expectConsistent(route);
  });

  it.each([
    ['Houston', 'houston-tx'],
    ['Dallas', 'dallas-tx'],
  ] as const)(
    'I-35 78 miles north of Dallas, northbound to %s (behind it): turns at the next exit',
    (_label, destination) => {
      // Prepare
      const truck = truckOnRoute('dallas-tx', 'denver-co', 78);
      const fromDallas = computeEmbeddedRoute({
        origin: place('dallas-tx'),
        destination: place(destination),
      });

      // Act
      const route = computeEmbeddedRoute({
        origin: truck.position,
        destination: place(destination),
        originHeadingDegrees: truck.heading,
      });
      const withoutHeading = computeEmbeddedRoute({
        origin: truck.position,
        destination: place(destination),
      });

      // Assess: 78 back to Dallas plus the 6 of the turn, not on to Oklahoma City and back, nor a
      // straight local road.
      expect(route.distanceMiles).toBeCloseTo(
        78 + 2 * TURNAROUND_MILES_EACH_WAY + fromDallas.distanceMiles,
        1,
      );
      expect(route.distanceMiles).toBeCloseTo(
        withoutHeading.distanceMiles + 2 * TURNAROUND_MILES_EACH_WAY,
        1,
      );
      expect(route.legs.slice(0, 2)).toEqual([
        expect.objectContaining({ kind: 'interstate', road: 'I-35', from: 'origin', to: TURNAROUND_PLACE }),
        expect.objectContaining({ kind: 'interstate', road: 'I-35', from: TURNAROUND_PLACE }),
      ]);
      expect(projectOntoRoute(route, place('oklahoma-city-ok')).offRouteMiles).toBeGreaterThan(50);
      expectConsistent(route);
    },
  );

  it('I-40 35 miles west of Oklahoma City, westbound to Albuquerque: Oklahoma City stays behind', () => {
    // Prepare
    const truck = truckOnRoute('oklahoma-city-ok', 'albuquerque-nm', 35);

    // Act
    const route = computeEmbeddedRoute({
      origin: truck.position,
      destination: place('albuquerque-nm'),
      originHeadingDegrees: truck.heading,
    });

    // Assess: 546 − 35 = 511 miles, and the route never comes near Oklahoma City.
    expect(route.distanceMiles).toBeCloseTo(truck.route.distanceMiles - 35, 1);
    expect(projectOntoRoute(route, place('oklahoma-city-ok')).offRouteMiles).toBeGreaterThan(30);
    expectConsistent(route);
  });

  it('I-40 at the same point, eastbound to Albuquerque: turns at the next exit, Oklahoma City stays ahead', () => {
    // Prepare
    const truck = truckOnRoute('oklahoma-city-ok', 'albuquerque-nm', 35);

    // Act
    const route = computeEmbeddedRoute({
      origin: truck.position,
      destination: place('albuquerque-nm'),
      originHeadingDegrees: truck.reverse,
    });

    // Assess: 511 + 6, not 35 on to Oklahoma City and 35 back.
    expect(route.distanceMiles).toBeCloseTo(
      truck.route.distanceMiles - 35 + 2 * TURNAROUND_MILES_EACH_WAY,
      1,
    );
    expect(projectOntoRoute(route, place('oklahoma-city-ok')).offRouteMiles).toBeGreaterThan(25);
    expectConsistent(route);
  });

  it.each([
    ['westbound to Denver', 'forward', 'denver-co', -400],
    ['eastbound to Chicago', 'reverse', 'chicago-il', 400],
    ['eastbound to Denver (away from it)', 'reverse', 'denver-co', null],
  ] as const)('I-80 in Iowa, 400 miles from Chicago, %s', (_label, way, destination, expected) => {
    // Prepare
    const truck = truckOnRoute('chicago-il', 'denver-co', 400);
    const heading = way === 'forward' ? truck.heading : truck.reverse;

    // Act
    const route = computeEmbeddedRoute({
      origin: truck.position,
      destination: place(destination),
      originHeadingDegrees: heading,
    });

    // Assess: westbound, 400 of Chicago → Denver are behind; eastbound to Chicago, 400 lie ahead.
    if (expected === -400) expect(route.distanceMiles).toBeCloseTo(truck.route.distanceMiles - 400, 1);
    if (expected === 400) expect(route.distanceMiles).toBeCloseTo(400, 1);
    if (expected === null) {
      // Heading away: on to the next exit east, then back past the truck's point and on west.
      const west = computeEmbeddedRoute({
        origin: truck.position,
        destination: place(destination),
        originHeadingDegrees: truck.heading,
      });
      expect(route.distanceMiles).toBeCloseTo(west.distanceMiles + 2 * TURNAROUND_MILES_EACH_WAY, 1);
      const turnedAt = pointAtMiles(route, TURNAROUND_MILES_EACH_WAY);
      expect(projectOntoRoute(west, turnedAt).offRouteMiles).toBeGreaterThan(2);
      expect(route.legs[1]).toMatchObject({ road: 'I-80', from: TURNAROUND_PLACE });
    }
    expect(route.legs[0]).toMatchObject({ kind: 'interstate', road: 'I-80', from: 'origin' });
    expectConsistent(route);
  });

  it.each([
    ['westbound to San Antonio', 'forward', 'san-antonio-tx', 197 - 50],
    ['eastbound to San Antonio', 'reverse', 'san-antonio-tx', 197 - 50 + 2 * TURNAROUND_MILES_EACH_WAY],
    ['eastbound to Houston', 'reverse', 'houston-tx', 50],
  ] as const)('I-10 50 miles west of Houston, %s', (_label, way, destination, expected) => {
    // Prepare
    const truck = truckOnRoute('houston-tx', 'san-antonio-tx', 50);

    // Act
    const route = computeEmbeddedRoute({
      origin: truck.position,
      destination: place(destination),
      originHeadingDegrees: way === 'forward' ? truck.heading : truck.reverse,
    });

    // Assess
    expect(truck.route.distanceMiles).toBe(197);
    expect(route.distanceMiles).toBeCloseTo(expected, 1);
    expectConsistent(route);
  });

  it('without a heading, takes whichever way along the road is shorter, never a local leg back', () => {
    // Prepare
    const north = truckOnRoute('dallas-tx', 'denver-co', 5.5);
    const west = truckOnRoute('oklahoma-city-ok', 'albuquerque-nm', 35);

    // Act
    const toDenver = computeEmbeddedRoute({ origin: north.position, destination: place('denver-co') });
    const toAtlanta = computeEmbeddedRoute({ origin: north.position, destination: place('atlanta-ga') });
    const toAlbuquerque = computeEmbeddedRoute({
      origin: west.position,
      destination: place('albuquerque-nm'),
    });

    // Assess
    expect(toDenver.distanceMiles).toBeCloseTo(north.route.distanceMiles - 5.5, 1);
    const viaDallas = computeEmbeddedRoute({ origin: place('dallas-tx'), destination: place('atlanta-ga') });
    expect(toAtlanta.distanceMiles).toBeCloseTo(viaDallas.distanceMiles + 5.5, 1);
    expect(toAtlanta.legs[0]).toMatchObject({ kind: 'interstate', road: 'I-35', from: 'origin' });
    expect(toAlbuquerque.distanceMiles).toBeCloseTo(west.route.distanceMiles - 35, 1);
    for (const route of [toDenver, toAtlanta, toAlbuquerque]) expectConsistent(route);
  });

  it('joins the road at the foot with a local leg when the truck is a little off the drawn line', () => {
    // Prepare: a mile east of I-35 north of Dallas (the road runs about north there).
    const truck = truckOnRoute('dallas-tx', 'denver-co', 5.5);
    const origin = { latitude: truck.position.latitude, longitude: truck.position.longitude + 1 / 59 };

    // Act
    const route = computeEmbeddedRoute({
      origin,
      destination: place('denver-co'),
      originHeadingDegrees: truck.heading,
    });

    // Assess
    const [local, interstate] = route.legs;
    expect(local).toMatchObject({ kind: 'local', from: 'origin', to: 'I-35 (origin)' });
    expect(interstate).toMatchObject({ kind: 'interstate', road: 'I-35', from: 'I-35 (origin)' });
    if (!local) throw new Error('no local leg');
    expect(local.miles).toBeLessThan(1.2 * LOCAL_CIRCUITY_FACTOR);
    expect(route.distanceMiles).toBeLessThan(truck.route.distanceMiles - 5.5 + 2);
    expectConsistent(route);
  });

  it('ends a route at the destination’s foot on the interstate, reached from whichever junction is shorter', () => {
    // Prepare
    const truck = truckOnRoute('dallas-tx', 'denver-co', 5.5);

    // Act
    const route = computeEmbeddedRoute({ origin: place('denver-co'), destination: truck.position });

    // Assess: 894 − 5.5, the last leg I-35 down from Wichita to the destination on the road.
    expect(route.distanceMiles).toBeCloseTo(truck.route.distanceMiles - 5.5, 1);
    expect(route.legs.at(-1)).toMatchObject({ kind: 'interstate', road: 'I-35', to: 'destination' });
    expectConsistent(route);
  });

  it('goes along the road alone when both ends lie on one segment with the destination ahead', () => {
    // Prepare: 40 and 200 miles west of Oklahoma City on I-40 (Amarillo, the next junction, at 260).
    const start = truckOnRoute('oklahoma-city-ok', 'albuquerque-nm', 40);
    const destination = pointAtMiles(start.route, 200);

    // Act
    const ahead = computeEmbeddedRoute({
      origin: start.position,
      destination,
      originHeadingDegrees: start.heading,
    });
    const behind = computeEmbeddedRoute({
      origin: destination,
      destination: start.position,
      originHeadingDegrees: start.heading,
    });

    // Assess: 160 miles straight on; the other way round, on to the next exit and back (3 + 163),
    // not on to Amarillo and back (60 + 220).
    expect(ahead.distanceMiles).toBeCloseTo(160, 1);
    expect(ahead.legs).toEqual([
      expect.objectContaining({ road: 'I-40', from: 'origin', to: 'destination' }),
    ]);
    expect(behind.distanceMiles).toBeCloseTo(160 + 2 * TURNAROUND_MILES_EACH_WAY, 1);
    expect(behind.legs).toEqual([
      expect.objectContaining({
        road: 'I-40',
        from: 'origin',
        to: TURNAROUND_PLACE,
        miles: 3,
        startMiles: 0,
      }),
      expect.objectContaining({
        road: 'I-40',
        from: TURNAROUND_PLACE,
        to: 'destination',
        miles: 163,
        startMiles: 3,
      }),
    ]);
    expectConsistent(ahead);
    expectConsistent(behind);
  });

  it('snaps to junctions as before when the truck is off every road, heading or not', () => {
    // Prepare: the Nebraska Sandhills, ~60 miles from the nearest interstate.
    const origin = { latitude: 42.0, longitude: -101.0 };

    // Act
    const withHeading = computeEmbeddedRoute({
      origin,
      destination: place('denver-co'),
      originHeadingDegrees: 90,
    });
    const without = computeEmbeddedRoute({ origin, destination: place('denver-co') });

    // Assess
    expect(withHeading).toEqual(without);
    expect(without.legs[0]).toMatchObject({ kind: 'local', from: 'origin' });
    expect(without.legs[0]?.to).not.toMatch(/origin/);
  });

  it('snaps to junctions as before when the heading crosses the road (an overpass, a cross street)', () => {
    // Prepare: on a cross street a quarter mile east of I-35, driving east.
    const truck = truckOnRoute('dallas-tx', 'denver-co', 5.5);
    const origin = { latitude: truck.position.latitude, longitude: truck.position.longitude + 0.25 / 59 };

    // Act
    const crossing = computeEmbeddedRoute({
      origin,
      destination: place('denver-co'),
      originHeadingDegrees: (truck.heading + 90) % 360,
    });

    // Assess: joined at a junction by local road, as a point off the network is.
    expect(crossing.legs[0]).toMatchObject({ kind: 'local', from: 'origin' });
    expectConsistent(crossing);
  });

  it('treats a point farther than the on-road distance from every road as off the road', () => {
    // Prepare: due north of I-40 west of Oklahoma City (it runs west there), just past the on-road distance.
    const truck = truckOnRoute('oklahoma-city-ok', 'albuquerque-nm', 35);
    const milesPerDegree = haversineMiles(truck.position, {
      latitude: truck.position.latitude + 1,
      longitude: truck.position.longitude,
    });
    const origin: GeoPoint = {
      latitude: truck.position.latitude + (ON_ROAD_MAX_OFFSET_MILES + 0.5) / milesPerDegree,
      longitude: truck.position.longitude,
    };

    // Act
    const route = computeEmbeddedRoute({
      origin,
      destination: place('albuquerque-nm'),
      originHeadingDegrees: truck.heading,
    });

    // Assess
    expect(route.legs[0]).toMatchObject({ kind: 'local', from: 'origin' });
    expect(route.legs[0]?.to).not.toMatch(/origin/);
  });
});
