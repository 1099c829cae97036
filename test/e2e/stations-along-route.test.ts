import { randomUUID } from 'node:crypto';
import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const chicago = { latitude: 41.8781, longitude: -87.6298 };
const denver = { latitude: 39.7392, longitude: -104.9903 };

interface CorridorStation {
  miles_along_route: number;
  off_route_miles: number;
  detour_miles: number;
  net_price_usd_per_gallon: number;
}

const along = (body: unknown) => prod.post('/v1/stations/along-route', { ...company, body });

describe('POST /v1/stations/along-route', () => {
  it('routes origin → destination and returns corridor stations in route order', async () => {
    const response = await along({
      origin: chicago,
      destination: denver,
      corridor_width_miles: 3,
      max_results: 50,
    });
    expect(response.status, response.text).toBe(200);
    const stations: CorridorStation[] = response.json.data;
    expect(response.json.route_distance_miles).toBeGreaterThan(900);
    expect(response.json.route_distance_miles).toBeLessThan(1150);
    expect(stations.length).toBeGreaterThan(10);
    const miles = stations.map((s) => s.miles_along_route);
    expect(miles).toEqual([...miles].sort((a, b) => a - b));
    for (const s of stations) {
      expect(s.off_route_miles).toBeLessThanOrEqual(3);
      expect(s.detour_miles).toBeCloseTo(2 * s.off_route_miles, 0);
      expect(s.miles_along_route).toBeLessThanOrEqual(response.json.route_distance_miles);
    }
  });

  it('spreads a capped result over the whole route', async () => {
    const response = await along({ origin: chicago, destination: denver, max_results: 4 });
    const stations: CorridorStation[] = response.json.data;
    expect(stations).toHaveLength(4);
    const total = response.json.route_distance_miles;
    expect(stations[0]?.miles_along_route).toBeLessThan(total / 2);
    expect(stations.at(-1)?.miles_along_route).toBeGreaterThan(total / 2);
  });

  it('accepts an encoded polyline (I-40, Amarillo to Albuquerque)', async () => {
    const line = polyline.encode([
      [35.222, -101.831],
      [35.17, -103.72],
      [35.084, -106.651],
    ]);
    const response = await along({ polyline: line, corridor_width_miles: 5 });
    expect(response.status, response.text).toBe(200);
    expect(response.json.route_distance_miles).toBeGreaterThan(250);
    expect(response.json.data.length).toBeGreaterThan(0);
  });

  it.each([
    ['both forms', { polyline: '_p~iF~ps|U_ulLnnqC', origin: chicago, destination: denver }, 'polyline'],
    ['neither form', { corridor_width_miles: 2 }, 'polyline'],
    ['origin without destination', { origin: chicago }, 'destination'],
    [
      'a corridor over 5 miles',
      { origin: chicago, destination: denver, corridor_width_miles: 5.5 },
      'corridor_width_miles',
    ],
    ['over 50 results', { origin: chicago, destination: denver, max_results: 51 }, 'max_results'],
    ['a bad latitude', { origin: { latitude: 91, longitude: 0 }, destination: denver }, 'origin.latitude'],
    ['an undecodable polyline', { polyline: '~~~~' }, 'polyline'],
  ])('422 for %s, naming the field', async (_case, body, field) => {
    const response = await along(body);
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('422 for a route longer than 3,500 miles', async () => {
    const zigzag = polyline.encode([
      [47.6, -122.3],
      [25.8, -80.2],
      [47.6, -122.3],
    ]);
    const response = await along({ polyline: zigzag });
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors[0].field).toBe('polyline');
  });

  it('502 routing_unreachable for a point in the ocean', async () => {
    const response = await along({ origin: { latitude: 30, longitude: -140 }, destination: denver });
    expectProblem(response, 502, 'routing_unreachable');
  });
});

describe('one distance model: a route and the stations along its own polyline', () => {
  interface RouteStop {
    station: { id: string };
    miles_along_route: number;
  }

  it.each([
    ['Dallas → Denver', { latitude: 32.7767, longitude: -96.797 }, denver, 20],
    ['Chicago → Denver', chicago, denver, 20],
    [
      'Seattle → Portland',
      { latitude: 47.6062, longitude: -122.3321 },
      { latitude: 45.5152, longitude: -122.6784 },
      20,
    ],
    [
      'a Wyoming ranch → Bismarck (local legs at both ends)',
      { latitude: 44.0, longitude: -110.0 },
      { latitude: 46.8, longitude: -100.78 },
      45,
    ],
  ])(
    '%s: the same total miles, and each of its stops at the same mile (to the tenth)',
    async (_name, origin, destination, fuelPercent) => {
      // A route that must stop: a 150-gallon tank, low enough that it cannot make it on what it has.
      const created = await prod.post('/v1/routes', {
        ...company,
        idempotencyKey: randomUUID(),
        body: {
          origin,
          destination,
          tank_size_gallons: 150,
          estimated_mpg: 6.5,
          fuel_level_percent: fuelPercent,
        },
      });
      expect(created.status, created.text).toBe(201);
      const route = created.json;

      const response = await along({ polyline: route.polyline, corridor_width_miles: 5, max_results: 50 });

      expect(response.status, response.text).toBe(200);
      expect(response.json.route_distance_miles).toBe(route.distance_miles);
      const alongById = new Map<string, CorridorStation>(
        response.json.data.map((station: CorridorStation & { id: string }) => [station.id, station]),
      );
      const stops: RouteStop[] = route.plan.stops;
      expect(stops.length).toBeGreaterThan(0);
      for (const stop of stops) {
        // Every stop the route planned lies in a 5-mile corridor of its own line, at the same mile.
        const found = alongById.get(stop.station.id);
        expect(found, stop.station.id).toBeDefined();
        expect(
          Math.abs((found?.miles_along_route ?? Number.NaN) - stop.miles_along_route),
        ).toBeLessThanOrEqual(0.1);
      }
      for (const station of response.json.data as CorridorStation[]) {
        expect(station.miles_along_route).toBeLessThanOrEqual(route.distance_miles);
      }
    },
  );
});
