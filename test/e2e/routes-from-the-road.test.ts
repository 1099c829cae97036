import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeEmbeddedRoute, TURNAROUND_MILES_EACH_WAY } from '#shared/geo/embedded-router.ts';
import { decodeRoutePolyline } from '#shared/geo/polyline.ts';
import { pointAtMiles } from '#shared/geo/route-line.ts';
import { projectOntoRoute } from '#shared/geo/route-projection.ts';
import { bearingDegrees } from '#shared/kernel/distance.ts';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { type Breadcrumb, guidanceClient, secondsAgo, type Truck } from './support-guidance.ts';

/**
 * A truck on I-35 5.5 road miles north of downtown Dallas, bound for Denver: POST /v1/routes in
 * the vehicle form and its guidance session count the road ahead of it (888.5 miles), not a U-turn
 * back to downtown first (901). Local stack only: the numbers are the embedded engine's.
 */
const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const guidance = guidanceClient(prod, company);

const dallas = { latitude: 32.7767, longitude: -96.797 };
const denver = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
/** Dallas → Denver as the embedded engine routes it from downtown (894 miles, I-35 north first). */
const downtown = computeEmbeddedRoute({ origin: dallas, destination: denver });
const MILES_OUT = 5.5;
/** A southbound truck there turns at the next exit: 3 miles on and 3 back. */
const TURN_MILES = 2 * TURNAROUND_MILES_EACH_WAY;

/** Three breadcrumbs a minute apart, the last `MILES_OUT` north of downtown; northbound or southbound. */
function onI35(direction: 'north' | 'south'): Breadcrumb[] {
  const miles = direction === 'north' ? [3.5, 4.5, MILES_OUT] : [7.5, 6.5, MILES_OUT];
  return miles.map((at, i) => ({
    ...pointAtMiles(downtown, at),
    recorded_at: secondsAgo(180 - i * 60),
    speed_mph: 60,
    fuel_level_percent: 22,
  }));
}

/** A breadcrumb with the provider's heading, which the guidance tests' type leaves out. */
type HeadedBreadcrumb = Breadcrumb & { heading_degrees?: number };

async function truckOnI35(
  direction: 'north' | 'south',
  extra: Partial<HeadedBreadcrumb> = {},
): Promise<Truck> {
  const truck = await guidance.newTruck();
  const crumbs = onI35(direction);
  const last = crumbs.length - 1;
  await guidance.drive(
    truck,
    crumbs.map((crumb, i) => (i === last ? { ...crumb, ...extra } : crumb)),
  );
  return truck;
}

const routeFromVehicle = (truck: Truck) =>
  prod.post('/v1/routes', {
    ...company,
    idempotencyKey: randomUUID(),
    body: { vehicle_id: truck.id, destination: denver, min_arrival_fuel_percent: 15 },
  });

describe.runIf(isLocalTarget())('routes start where the truck is (I-35 north of Dallas → Denver)', () => {
  it('POST /v1/routes for a northbound truck: the 888.5 miles ahead, starting at the truck', async () => {
    // Prepare: no heading reported; the breadcrumbs say north.
    const truck = await truckOnI35('north');

    // Act
    const response = await routeFromVehicle(truck);

    // Assess
    expect(response.status, response.text).toBe(201);
    expect(downtown.distanceMiles).toBe(894);
    expect(response.json.distance_miles).toBeCloseTo(downtown.distanceMiles - MILES_OUT, 0);
    const line = decodeRoutePolyline(response.json.polyline);
    expect(
      projectOntoRoute({ points: line, cumulativeMiles: line.map((_, i) => i) }, dallas).offRouteMiles,
    ).toBeGreaterThan(4);
    for (const stop of response.json.plan.stops as { miles_along_route: number }[]) {
      expect(stop.miles_along_route).toBeGreaterThanOrEqual(0);
    }
  });

  it('POST /v1/routes for a southbound truck at the same point: turns at the next exit, then north', async () => {
    // Prepare: the provider reports the heading (south) on the last breadcrumb.
    const south = bearingDegrees(pointAtMiles(downtown, MILES_OUT), dallas);
    const truck = await truckOnI35('south', { heading_degrees: south });

    // Act
    const response = await routeFromVehicle(truck);

    // Assess: the turn's miles count; no local road cuts across, and no detour to downtown.
    expect(response.status, response.text).toBe(201);
    expect(response.json.distance_miles).toBeCloseTo(downtown.distanceMiles - MILES_OUT + TURN_MILES, 0);
  });

  it('guidance counts remaining_miles and every stop’s miles_ahead along the road ahead', async () => {
    // Prepare
    const truck = await truckOnI35('north');

    // Act
    await guidance.start(truck.id, { destination: denver, min_arrival_fuel_percent: 15 });
    const planned = await guidance.waitFor(truck.id, 'a plan from I-35', (g) => g.stops.length > 0);

    // Assess: each stop as far ahead as it lies beyond the truck on the downtown route.
    expect(planned.remaining_miles).toBeCloseTo(downtown.distanceMiles - MILES_OUT, 0);
    for (const stop of planned.stops) {
      const along = projectOntoRoute(downtown, stop.station).milesAlongRoute;
      expect(Math.abs(stop.miles_ahead - (along - MILES_OUT)), stop.station.name).toBeLessThanOrEqual(0.5);
    }
  });

  it('guidance for a southbound truck plans from the next exit: the miles of the turn count', async () => {
    // Prepare
    const south = bearingDegrees(pointAtMiles(downtown, MILES_OUT), dallas);
    const truck = await truckOnI35('south', { heading_degrees: south });

    // Act
    await guidance.start(truck.id, { destination: denver, min_arrival_fuel_percent: 15 });
    const planned = await guidance.waitFor(truck.id, 'a plan from I-35', (g) => g.remaining_miles !== null);

    // Assess
    expect(planned.remaining_miles).toBeCloseTo(downtown.distanceMiles - MILES_OUT + TURN_MILES, 0);
  });

  it('guidance for a truck westbound on I-40 35 miles past Oklahoma City recommends nothing behind it', async () => {
    // Prepare
    const okc = { latitude: 35.4676, longitude: -97.5164 };
    const albuquerque = { latitude: 35.0844, longitude: -106.6504, name: 'Albuquerque' };
    const fromOkc = computeEmbeddedRoute({ origin: okc, destination: albuquerque });
    const truck = await guidance.newTruck();
    await guidance.drive(
      truck,
      [33, 34, 35].map((at, i) => ({
        ...pointAtMiles(fromOkc, at),
        recorded_at: secondsAgo(180 - i * 60),
        speed_mph: 60,
        fuel_level_percent: 22,
      })),
    );

    // Act
    await guidance.start(truck.id, { destination: albuquerque, min_arrival_fuel_percent: 15 });
    const planned = await guidance.waitFor(truck.id, 'a plan from I-40', (g) => g.stops.length > 0);

    // Assess: 511 of the 546 miles lie ahead, and every stop lies past the truck, as far as it says.
    expect(planned.remaining_miles).toBeCloseTo(fromOkc.distanceMiles - 35, 0);
    for (const stop of planned.stops) {
      const along = projectOntoRoute(fromOkc, stop.station).milesAlongRoute;
      expect(along, stop.station.name).toBeGreaterThan(35);
      expect(Math.abs(stop.miles_ahead - (along - 35)), stop.station.name).toBeLessThanOrEqual(0.5);
    }
  });
});
