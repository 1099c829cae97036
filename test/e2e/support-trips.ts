import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { decodeRoutePolyline } from '#shared/geo/polyline.ts';
import { pointAtMiles, routeLineFromPoints } from '#shared/geo/route-line.ts';
import { projectOntoRoute } from '#shared/geo/route-projection.ts';
import type { RouteLine } from '#shared/geo/routing-engine.ts';
import { type GeoPoint, haversineMiles, interpolateGreatCircle } from '#shared/kernel/distance.ts';
import type { ApiClient } from '../support/http-client.ts';
import {
  asApiTimestamp,
  type Breadcrumb,
  type Guidance,
  guidanceClient,
  type Truck,
} from './support-guidance.ts';

/**
 * Helpers of the trip e2e tests: a trip client, and a scripted drive that takes a started trip's
 * truck to its first fuel stop (and, when asked, fills it there) so later steps (a fueling
 * reported by card, the savings report) can build on the same drive. HTTP only.
 */

// biome-ignore lint/suspicious/noExplicitAny: tests read fields of the answer and assert on them.
export type TripJson = any;

export const DALLAS = { latitude: 32.7767, longitude: -96.797, name: 'Dallas' };
export const DENVER = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
const TANK = 150;
const MPG = 6.5;
const PERCENT_PER_MILE = 100 / MPG / TANK;
/** Gauge slosh in points, a fixed pattern (scaled down at rest) so every run sends the same levels. */
const SLOSH = [1.8, -2.4, 0.7, 2.5, -1.3, -2.1, 1.1, 0.2, -0.9, 2.2, -1.7];

export function tripClient(client: ApiClient, auth: { key: string; fleet?: string }) {
  const path = (id: string, action?: string) => `/v1/trips/${id}${action ? `/${action}` : ''}`;

  /** POST /v1/trips, which must answer 201. */
  async function create(
    body: Record<string, unknown>,
    idempotencyKey: string = randomUUID(),
  ): Promise<TripJson> {
    const response = await client.post('/v1/trips', { ...auth, body, idempotencyKey });
    expect(response.status, response.text).toBe(201);
    return response.json;
  }

  /** A transition (start, complete, cancel, optimize), which must answer 200 with the trip. */
  async function move(
    id: string,
    action: 'start' | 'complete' | 'cancel' | 'optimize',
    body?: unknown,
  ): Promise<TripJson> {
    const response = await client.post(path(id, action), { ...auth, ...(body ? { body } : {}) });
    expect(response.status, response.text).toBe(200);
    return response.json;
  }

  const read = (id: string) => client.get(path(id), auth);

  return { path, create, move, read };
}

/** A trip body from Dallas to Denver for `truck`, planned to start now. */
export const dallasToDenver = (truck: Truck, fields: Record<string, unknown> = {}) => ({
  vehicle_id: truck.id,
  reference: `LOAD-${randomUUID().slice(0, 6)}`,
  origin: DALLAS,
  destination: DENVER,
  planned_start_at: new Date().toISOString(),
  ...fields,
});

export interface TripDrive {
  truck: Truck;
  trip: TripJson;
  /** The trip's first fuel stop, as the started trip showed it. */
  fuelStop: TripJson;
  /** The guidance session the start opened, as read right after it. */
  session: Guidance;
  /** Every breadcrumb sent, in order. */
  crumbs: Breadcrumb[];
  /** When the truck settled at the pumps, and when it left them. */
  arrivedAtMs: number;
  departedAtMs: number;
}

/**
 * A truck with tank and mpg reports from Dallas at 40 %; a Dallas → Denver trip with auto_optimize
 * is created and started; the truck then drives the trip's route to its first fuel stop (a
 * breadcrumb a minute on the interstate at 60 mph, every 30 s on the exit ramp and the road to the
 * station at 25 mph), stays at the pumps and drives back to the route. The gauge sloshes (about
 * ±2.5 points moving, ±1 at rest, a fixed pattern so runs repeat). Without `fillToPercent` the truck
 * stays 11 minutes; with it, it settles for 2 minutes, the pump adds 8 points a minute (12 gal on
 * the 150-gal tank) up to `fillToPercent`, and the gauge rests there 4 minutes before the truck
 * leaves: a tank-level rise. Each breadcrumb waits for the guidance worker. All of it ends a minute
 * ago, so nothing reads as stale.
 */
export async function driveTripToFuelStop(
  client: ApiClient,
  auth: { key: string; fleet?: string },
  options: { fillToPercent?: number } = {},
): Promise<TripDrive> {
  const guidance = guidanceClient(client, auth);
  const trips = tripClient(client, auth);
  const truck = await guidance.newTruck();
  const startMs = Date.now() - 3 * 3_600_000;
  await guidance.drive(truck, [
    {
      latitude: DALLAS.latitude,
      longitude: DALLAS.longitude,
      recorded_at: new Date(startMs).toISOString(),
      fuel_level_percent: 40,
      speed_mph: 0,
    },
  ]);
  const created = await trips.create(
    dallasToDenver(truck, { auto_optimize: true, min_arrival_fuel_percent: 15 }),
  );
  const trip = await trips.move(created.id, 'start');
  const fuelStop = trip.stops.find((stop: TripJson) => stop.type === 'fuel');
  expect(fuelStop, JSON.stringify(trip.stops)).toBeDefined();
  const session = await guidance.current(truck.id);

  // The trip's route as a line of road miles, and where on it the station lies.
  const line = routeLineOf(trip);
  const station: GeoPoint = { latitude: fuelStop.latitude, longitude: fuelStop.longitude };
  const driven = await driveToPumps(guidance, truck, line, station, options);
  return { truck, trip, fuelStop, session, ...driven };
}

/** A route's encoded polyline as a line of road miles (scaled to the route's own distance). */
export function routeLineOf(route: { polyline: string; distance_miles: number }): RouteLine {
  const raw = routeLineFromPoints(decodeRoutePolyline(route.polyline));
  const scale = route.distance_miles / (raw.cumulativeMiles.at(-1) as number);
  return { points: raw.points, cumulativeMiles: raw.cumulativeMiles.map((m) => m * scale) };
}

/**
 * The scripted drive of {@link driveTripToFuelStop} for a truck that left `line`'s origin at 40 %:
 * from 4 road miles before `station`'s foot to its pumps, the dwell (and the fill, with
 * `fillToPercent`), back to the route and 3 miles on. Each breadcrumb waits for the guidance worker;
 * the drive ends a minute ago.
 */
export async function driveToPumps(
  guidance: ReturnType<typeof guidanceClient>,
  truck: Truck,
  line: RouteLine,
  station: GeoPoint,
  options: { fillToPercent?: number } = {},
): Promise<Pick<TripDrive, 'crumbs' | 'arrivedAtMs' | 'departedAtMs'>> {
  const S = projectOntoRoute(line, station).milesAlongRoute;
  const script: { at: number; point: GeoPoint; fuel: number; mph: number }[] = [];
  let t = 0;
  let here = pointAtMiles(line, Math.max(0, S - 4));
  let level = 40 - Math.max(0, S - 4) * PERCENT_PER_MILE;
  const push = (point: GeoPoint, seconds: number, mph: number, fuel?: number) => {
    level = fuel ?? level - haversineMiles(here, point) * 1.1 * PERCENT_PER_MILE;
    here = point;
    t += seconds * 1000;
    const slosh = SLOSH[script.length % SLOSH.length] as number;
    const gauge = level + (mph > 0 ? slosh : slosh * 0.4);
    script.push({ at: t, point, fuel: Math.round(gauge * 10) / 10, mph });
  };
  const straightTo = (target: GeoPoint, mph: number) => {
    const from = here;
    const steps = Math.max(1, Math.ceil((haversineMiles(from, target) / mph) * 120));
    for (let i = 1; i <= steps; i++) push(interpolateGreatCircle(from, target, i / steps), 30, mph);
  };
  push(here, 60, 60);
  for (let miles = S - 3; miles <= S - 1; miles += 1) push(pointAtMiles(line, Math.max(0, miles)), 60, 60);
  straightTo(station, 25);
  const arrivedLevel = level;
  let arrivedAt = t;
  const fill = options.fillToPercent;
  const pumpMinutes = fill === undefined ? 0 : Math.max(0, Math.ceil((fill - arrivedLevel) / 8));
  const dwellMinutes = fill === undefined ? 11 : 2 + pumpMinutes + 4;
  for (let i = 0; i < dwellMinutes; i++) {
    const pumped = fill === undefined ? arrivedLevel : Math.min(fill, arrivedLevel + Math.max(0, i - 1) * 8);
    push(station, 60, 0, pumped);
  }
  straightTo(pointAtMiles(line, S + 1), 25);
  let departedAt = t;
  for (let miles = S + 2; miles <= S + 3; miles += 1) push(pointAtMiles(line, miles), 60, 60);
  // The script ends a minute ago.
  const shift = Date.now() - 60_000 - t;
  for (const step of script) step.at += shift;
  arrivedAt += shift;
  departedAt += shift;

  const crumbs: Breadcrumb[] = [];
  for (const step of script) {
    const recordedAt = new Date(step.at).toISOString();
    const crumb: Breadcrumb = {
      ...step.point,
      recorded_at: recordedAt,
      fuel_level_percent: Math.max(0, Math.min(100, step.fuel)),
      speed_mph: step.mph,
    };
    await guidance.drive(truck, [crumb]);
    await guidance.waitFor(
      truck.id,
      `the breadcrumb of ${recordedAt}`,
      (g) => g.position?.recorded_at === asApiTimestamp(recordedAt),
    );
    crumbs.push(crumb);
  }
  return { crumbs, arrivedAtMs: arrivedAt, departedAtMs: departedAt };
}
