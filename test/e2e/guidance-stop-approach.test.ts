import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRoutePolyline } from '#shared/geo/polyline.ts';
import { pointAtMiles, routeLineFromPoints } from '#shared/geo/route-line.ts';
import { projectOntoRoute } from '#shared/geo/route-projection.ts';
import type { RouteLine } from '#shared/geo/routing-engine.ts';
import { type GeoPoint, haversineMiles, interpolateGreatCircle } from '#shared/kernel/distance.ts';
import { verifyWebhookSignature } from '../../webhooks-receiver/index.ts';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import {
  asApiTimestamp,
  type Breadcrumb,
  eventually,
  type Guidance,
  guidanceClient,
  type ReceivedDelivery,
  startReceiver,
} from './support-guidance.ts';

/**
 * Over HTTP: a truck guided to "Independent I-35 Oklahoma", 1.4 miles off the route,
 * leaves the interstate just past the station's point, drives the surface road to it, fuels
 * 11 minutes and drives back. Breadcrumbs go in one POST /v1/locations at a time (each waits for
 * the guidance worker), events come out to a signed webhook receiver. Local stack only (the
 * receiver listens on loopback, and the route is the embedded engine's).
 */
const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const guidance = guidanceClient(prod, company);

const dallas = { latitude: 32.7767, longitude: -96.797 };
const denver = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
const TANK = 150;
const PERCENT_PER_MILE = 100 / 6.5 / TANK;
const EVENT_TYPES = [
  'guidance.updated',
  'guidance.stop_approaching',
  'vehicle.stop_arrived',
  'vehicle.stop_departed',
  'fueling.recorded',
  'fueling.matched',
];

describe.runIf(isLocalTarget())(
  'a truck fuelling at a recommended stop 1.4 miles off the route, left and rejoined',
  () => {
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let endpoint: { id: string; secret: string };

    beforeAll(async () => {
      receiver = await startReceiver();
      const created = await prod.post('/v1/webhooks', {
        ...company,
        body: { url: receiver.url, event_types: EVENT_TYPES },
      });
      expect(created.status, created.text).toBe(201);
      endpoint = created.json;
    });
    afterAll(async () => {
      if (endpoint) await prod.delete(`/v1/webhooks/${endpoint.id}`, company);
      await receiver?.close();
    });

    it('keeps the stop off the route, arrives, matches the fill, departs and replans', {
      timeout: 180_000,
    }, async () => {
      // The route the session plans on (the embedded engine's, as POST /v1/routes answers it).
      const routed = await prod.post('/v1/routes', {
        ...company,
        idempotencyKey: randomUUID(),
        body: {
          origin: dallas,
          destination: denver,
          tank_size_gallons: TANK,
          estimated_mpg: 6.5,
          fuel_level_percent: 40,
          min_arrival_fuel_percent: 15,
        },
      });
      expect(routed.status, routed.text).toBe(201);
      const raw = routeLineFromPoints(decodeRoutePolyline(routed.json.polyline));
      const scale = routed.json.distance_miles / (raw.cumulativeMiles.at(-1) as number);
      const line: RouteLine = {
        points: raw.points,
        cumulativeMiles: raw.cumulativeMiles.map((m) => m * scale),
      };

      // Guided from Dallas at 40 %: the plan names the station of the report.
      const truck = await guidance.newTruck();
      const startMs = Date.now() - 3 * 3_600_000;
      await guidance.drive(truck, [
        { ...dallas, recorded_at: new Date(startMs).toISOString(), fuel_level_percent: 40, speed_mph: 0 },
      ]);
      const session = (await guidance.start(truck.id, { destination: denver, min_arrival_fuel_percent: 15 }))
        .json;
      const stop = session.stops[0];
      expect(stop?.station.name).toBe('Independent I-35 Oklahoma');
      if (!stop) return;
      const station = { latitude: stop.station.latitude, longitude: stop.station.longitude };
      const foot = projectOntoRoute(line, station);
      expect(foot.offRouteMiles).toBeGreaterThan(1);
      expect(foot.offRouteMiles).toBeLessThan(2);
      const S = foot.milesAlongRoute;

      // The script: 4 miles of interstate (a breadcrumb a minute), off just past the station's
      // point, the surface road (every 30 s), 11 minutes at the pumps, back and on up the interstate.
      // About 25 minutes that ended a minute ago: every breadcrumb is fresh (not data_stale) when read.
      const crumbs: { at: number; point: GeoPoint; fuel: number; mph: number }[] = [];
      let t = Date.now() - 27 * 60_000;
      let here = pointAtMiles(line, S - 4);
      let level = 40 - (S - 4) * PERCENT_PER_MILE;
      let wobble = 0;
      const push = (point: GeoPoint, seconds: number, mph: number, fuel?: number) => {
        level = fuel ?? level - haversineMiles(here, point) * 1.1 * PERCENT_PER_MILE;
        here = point;
        t += seconds * 1000;
        wobble += 1;
        const slosh = mph > 0 ? ((wobble * 7) % 9) - 4 : (wobble % 3) - 1;
        crumbs.push({ at: t, point, fuel: Math.round((level + slosh) * 10) / 10, mph });
      };
      const straightTo = (target: GeoPoint, mph: number) => {
        const from = here;
        const steps = Math.ceil((haversineMiles(from, target) / mph) * 120);
        for (let i = 1; i <= steps; i++) push(interpolateGreatCircle(from, target, i / steps), 30, mph);
      };
      push(here, 60, 60);
      for (let miles = S - 3; miles <= S - 1; miles += 1) push(pointAtMiles(line, miles), 60, 60);
      push(pointAtMiles(line, S + 0.4), 84, 60);
      const exitAt = crumbs.length;
      straightTo(station, 25);
      const arrivedLevel = level;
      const atStation = crumbs.length;
      for (let i = 0; i < 11; i++) push(station, 60, 0, Math.min(87, arrivedLevel + Math.max(0, i - 2) * 8));
      straightTo(pointAtMiles(line, S + 0.5), 25);
      for (let miles = S + 1.5; miles <= S + 3.5; miles += 1) push(pointAtMiles(line, miles), 60, 60);

      const phases: string[] = [];
      const firstStops: (string | undefined)[] = [];
      let last: Guidance = session;
      for (const crumb of crumbs) {
        const recordedAt = new Date(crumb.at).toISOString();
        const sent: Breadcrumb = {
          ...crumb.point,
          recorded_at: recordedAt,
          fuel_level_percent: Math.max(0, Math.min(100, crumb.fuel)),
          speed_mph: crumb.mph,
        };
        await guidance.drive(truck, [sent]);
        last = await guidance.waitFor(
          truck.id,
          `the breadcrumb of ${recordedAt}`,
          (g) => g.position?.recorded_at === asApiTimestamp(recordedAt),
        );
        phases.push(last.phase);
        firstStops.push(last.stops[0]?.id);
      }

      // Held from the exit to the station, at_stop at the pumps, a fresh plan after leaving.
      expect(phases.slice(0, exitAt)).toContain('approaching_stop');
      expect(firstStops.slice(exitAt - 1, atStation)).toEqual(
        firstStops.slice(exitAt - 1, atStation).map(() => stop.id),
      );
      expect(phases.slice(atStation)).toContain('at_stop');
      expect(last.stops.map((s) => s.station.id)).not.toContain(stop.station.id);
      expect(['no_stop_needed', 'stop_recommended']).toContain(last.phase);
      expect(last.fuel?.level_percent).toBeGreaterThan(80);

      // The events, signed, in the order they happened.
      const mine = () =>
        receiver.received
          .map((r: ReceivedDelivery) => ({ r, envelope: JSON.parse(r.body) }))
          .filter(({ envelope }) => envelope.data?.vehicle_id === truck.id)
          .sort((a, b) => a.envelope.sequence - b.envelope.sequence);
      await eventually('fueling.matched and the plan after the departure', () => {
        const types = mine().map(({ envelope }) => envelope.type);
        const departed = types.indexOf('vehicle.stop_departed');
        return departed >= 0 &&
          types.slice(departed).includes('guidance.updated') &&
          types.includes('fueling.matched')
          ? true
          : undefined;
      });
      const events = mine();
      for (const { r } of events) {
        expect(
          verifyWebhookSignature({
            rawBody: r.body,
            header: String(r.headers['x-service-signature']),
            secrets: endpoint.secret,
          }).ok,
        ).toBe(true);
      }
      const order = events.map(({ envelope }) => envelope.type).filter((type) => type !== 'guidance.updated');
      expect(order).toEqual([
        'guidance.stop_approaching',
        'vehicle.stop_arrived',
        'fueling.recorded',
        'fueling.matched',
        'vehicle.stop_departed',
      ]);
      const data = (type: string) => events.find(({ envelope }) => envelope.type === type)?.envelope.data;
      expect(data('guidance.stop_approaching')).toMatchObject({ guidance_id: session.id, stop_id: stop.id });
      expect(data('vehicle.stop_arrived')).toMatchObject({ guidance_id: session.id, stop_id: stop.id });
      const rise = 87 - arrivedLevel;
      expect(Math.abs(data('fueling.recorded').gallons - (rise / 100) * TANK)).toBeLessThanOrEqual(
        0.1 * (rise / 100) * TANK,
      );
      expect(data('fueling.matched')).toMatchObject({
        fueling_id: data('fueling.recorded').fueling_id,
        guidance_id: session.id,
        stop_id: stop.id,
        station: { id: stop.station.id, name: 'Independent I-35 Oklahoma' },
      });
      expect(data('vehicle.stop_departed')).toMatchObject({ guidance_id: session.id, stop_id: stop.id });
      const lastUpdate = events.filter(({ envelope }) => envelope.type === 'guidance.updated').at(-1)
        ?.envelope.data;
      expect(lastUpdate).toMatchObject({ guidance_id: session.id, stop_ids: last.stops.map((s) => s.id) });
    });
  },
);
