import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRoutePolyline } from '#shared/geo/polyline.ts';
import { pointAtMiles, routeLineFromPoints } from '#shared/geo/route-line.ts';
import { projectOntoRoute } from '#shared/geo/route-projection.ts';
import type { RouteLine } from '#shared/geo/routing-engine.ts';
import { type GeoPoint, interpolateGreatCircle } from '#shared/kernel/distance.ts';
import { verifyWebhookSignature } from '../../webhooks-receiver/index.ts';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { type Breadcrumb, eventually, guidanceClient, startReceiver } from './support-guidance.ts';

/**
 * The drive telematics providers deliver late: a truck leaves Dallas north on I-35 with 22 % of a
 * 150-gallon tank (6.5 mpg), guided to Denver with 15 % on arrival. Its breadcrumbs, one a minute
 * of recorded_at with a gauge that sloshes ±1 %, reach the API as a buffered upload: 29 minutes of
 * drive posted within one minute. The driver fuels at the stop guidance showed when it started
 * (exit, surface road, 20 → 92 % over ten minutes, back onto I-35). A signed webhook receiver gets
 * the whole loop for that stop. Local stack only (the receiver listens on loopback).
 */
const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const guidance = guidanceClient(prod, company);

const dallas = { latitude: 32.7767, longitude: -96.797 };
const denver = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
const TANK = 150;
const MPG = 6.5;
const PERCENT_PER_MILE = 100 / MPG / TANK;
/** Where the truck is when guidance starts: road miles north of downtown Dallas on I-35. */
const START_MILE = 5.5;
const MINUTE_MS = 60_000;
const EVENT_TYPES = [
  'guidance.updated',
  'guidance.stop_approaching',
  'vehicle.stop_arrived',
  'vehicle.stop_departed',
  'fueling.recorded',
  'fueling.matched',
];

describe.runIf(isLocalTarget())('a buffered upload of a truck fuelling at the stop it was shown', () => {
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

  it('arrives, records, matches and departs at the stop shown when guidance started', {
    timeout: 120_000,
  }, async () => {
    // The road north: the embedded engine's route from downtown Dallas, as POST /v1/routes answers it.
    const routed = await prod.post('/v1/routes', {
      ...company,
      idempotencyKey: randomUUID(),
      body: {
        origin: dallas,
        destination: denver,
        tank_size_gallons: TANK,
        estimated_mpg: MPG,
        fuel_level_percent: 22,
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

    // The provider's last upload: the truck 5.5 miles up I-35, a minute apart, at 22 %. The
    // drive that follows ends about now, so its start is 29 minutes ago (delayed, not stale).
    const truck = await guidance.newTruck({ tank_size_gallons: TANK, estimated_mpg: MPG });
    const startMs = Date.now() - 29 * MINUTE_MS - 15_000;
    const crumb = (atMs: number, point: GeoPoint, fuel: number, mph: number): Breadcrumb => ({
      ...round5(point),
      recorded_at: new Date(atMs).toISOString(),
      fuel_level_percent: Math.round(fuel * 10) / 10,
      speed_mph: mph,
    });
    await guidance.drive(truck, [
      crumb(startMs - MINUTE_MS, pointAtMiles(line, START_MILE - 1), 22.2, 60),
      crumb(startMs, pointAtMiles(line, START_MILE), 22, 60),
    ]);
    await guidance.waitFor(truck.id, 'the provider’s last upload', (g) => g.position !== null);
    const session = (await guidance.start(truck.id, { destination: denver, min_arrival_fuel_percent: 15 }))
      .json;
    const shown = session.stops[0];
    expect(shown, JSON.stringify(session)).toBeDefined();
    if (!shown) return;
    const station = { latitude: shown.station.latitude, longitude: shown.station.longitude };
    const exitMile = projectOntoRoute(line, station).milesAlongRoute;
    // The drive: a stop a few miles up the road, reached well within the 29 minutes.
    expect(exitMile - START_MILE, `${shown.station.name} is not a few miles ahead`).toBeGreaterThan(0);
    expect(exitMile - START_MILE, `${shown.station.name} is not a few miles ahead`).toBeLessThan(12);

    // 29 minutes of drive, one breadcrumb a minute of recorded_at: I-35 to the exit at 60 mph, the
    // surface road at 25, twelve minutes at the pumps (20 → 92 %: 108 gallons over ten minutes),
    // back, and on up I-35.
    const slosh = seededRandom(35);
    const gauge = (level: number, moving: boolean) => level + (slosh() * 2 - 1) * (moving ? 1 : 0.25);
    const truth: { point: GeoPoint; fuel: number; mph: number }[] = [];
    let mile = START_MILE;
    let level = 22;
    while (mile + 1 < exitMile) {
      mile += 1;
      level -= PERCENT_PER_MILE;
      truth.push({ point: pointAtMiles(line, mile), fuel: level, mph: 60 });
    }
    const exitPoint = pointAtMiles(line, exitMile);
    for (const f of [0.5, 1])
      truth.push({ point: interpolateGreatCircle(exitPoint, station, f), fuel: 20, mph: 25 });
    for (let minute = 0; minute < 12; minute++) {
      const pumped = Math.min(1, Math.max(0, (minute - 1) / 10));
      truth.push({ point: station, fuel: 20 + pumped * 72, mph: 0 });
    }
    const rejoin = pointAtMiles(line, exitMile + 0.3);
    truth.push({ point: interpolateGreatCircle(station, rejoin, 0.6), fuel: 92, mph: 25 });
    mile = exitMile + 0.3;
    level = 92;
    while (truth.length < 29) {
      mile += 1;
      level -= PERCENT_PER_MILE;
      truth.push({ point: pointAtMiles(line, mile), fuel: level, mph: 60 });
    }
    const drive = truth
      .slice(0, 29)
      .map((t, i) => crumb(startMs + (i + 1) * MINUTE_MS, t.point, gauge(t.fuel, t.mph > 0), t.mph));
    // The next breadcrumb: a mile further, the gauge sloshed up to 22.1 %.
    drive[0] = { ...(drive[0] as Breadcrumb), fuel_level_percent: 22.1 };

    // The upload: the provider replays its buffer a breadcrumb a POST, back to back, within a minute.
    for (const breadcrumb of drive) await guidance.drive(truck, [breadcrumb]);

    const mine = () =>
      receiver.received
        .map((r) => ({ r, envelope: JSON.parse(r.body) }))
        .filter(({ envelope }) => envelope.data?.vehicle_id === truck.id)
        .sort((a, b) => a.envelope.sequence - b.envelope.sequence);
    const loop = ['vehicle.stop_arrived', 'fueling.recorded', 'fueling.matched', 'vehicle.stop_departed'];
    await eventually('the fuelling loop’s events', () => {
      const types = new Set(mine().map(({ envelope }) => envelope.type));
      return loop.every((type) => types.has(type)) ? true : undefined;
    }).catch((error: Error) => {
      throw new Error(
        `${error.message}; got ${mine()
          .map(({ envelope }) => envelope.type)
          .join(', ')}`,
      );
    });
    const events = mine();
    for (const { r } of events) {
      const verified = verifyWebhookSignature({
        rawBody: r.body,
        header: String(r.headers['x-service-signature']),
        secrets: endpoint.secret,
      });
      expect(verified.ok).toBe(true);
    }
    expect(events.map(({ envelope }) => envelope.type).filter((type) => type !== 'guidance.updated')).toEqual(
      ['guidance.stop_approaching', ...loop],
    );
    const data = (type: string) => events.find(({ envelope }) => envelope.type === type)?.envelope.data;
    expect(data('guidance.stop_approaching')).toMatchObject({ guidance_id: session.id, stop_id: shown.id });
    expect(data('vehicle.stop_arrived')).toMatchObject({ guidance_id: session.id, stop_id: shown.id });
    expect(data('fueling.recorded').gallons).toBeGreaterThan(95);
    expect(data('fueling.recorded').gallons).toBeLessThan(120);
    expect(data('fueling.matched')).toMatchObject({
      fueling_id: data('fueling.recorded').fueling_id,
      guidance_id: session.id,
      stop_id: shown.id,
      station_id: shown.station.id,
    });
    expect(data('vehicle.stop_departed')).toMatchObject({ guidance_id: session.id, stop_id: shown.id });
    // Judged on the breadcrumbs' time: twelve minutes at the pumps, though uploaded in one.
    expect(data('vehicle.stop_departed').dwell_minutes).toBeGreaterThanOrEqual(11);
    expect(data('vehicle.stop_departed').dwell_minutes).toBeLessThanOrEqual(14);
  });
});

const round5 = (point: GeoPoint): GeoPoint => ({
  latitude: Math.round(point.latitude * 1e5) / 1e5,
  longitude: Math.round(point.longitude * 1e5) / 1e5,
});
