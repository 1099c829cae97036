import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pointAtMiles } from '#shared/geo/route-line.ts';
import { projectOntoRoute } from '#shared/geo/route-projection.ts';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { type GuidanceStop, guidanceClient, type Truck } from './support-guidance.ts';
import { DALLAS, DENVER, driveToPumps, routeLineOf } from './support-trips.ts';
import { ASYNC_EFFECT_TIMEOUT_MS } from './support-waits.ts';

/**
 * The issue's day, as a new user tries it: five trucks leave Dallas for Denver at 40 % of a
 * 150-gallon tank (6.5 mpg) and are guided with 15 % on arrival. Four drive to the stop guidance
 * showed and fill there; one fills about 55 road miles earlier, at the dearest station of the
 * corridor there. Each fill is detected from the gauge and reported by the fuel card (station,
 * posted price, the fleet's discount, gallons). The savings report then credits the decision:
 * followers show a routing saving, the early filler none of theirs but a missed saving and an
 * unfollowed stop, and the fleet's totals are the sum of its rows. Local stack only: the drive is
 * replayed over the last hours, which the worker and the report judge on the breadcrumbs' time.
 */
const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const guidance = guidanceClient(prod, company);

const TANK = 150;
const MPG = 6.5;
/** How much earlier than the shown stop the early filler fuels, in road miles (the 55). */
const EARLY_MILES = 55;
const FILL_TO_PERCENT = 92;

// biome-ignore lint/suspicious/noExplicitAny: the test reads fields of the answers and asserts on them.
type Json = any;

/** The truck's one detected fill, once the worker has recorded it. */
async function detectedFill(truck: Truck): Promise<Json> {
  const deadline = Date.now() + ASYNC_EFFECT_TIMEOUT_MS;
  for (;;) {
    const listed = await prod.get('/v1/fuelings', {
      ...company,
      query: { vehicle_id: truck.id, source: 'detected' },
    });
    expect(listed.status, listed.text).toBe(200);
    if (listed.json.data.length > 0) return listed.json.data[0];
    if (Date.now() > deadline) throw new Error(`no fill detected for ${truck.id}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.runIf(isLocalTarget())('the savings report after a scripted day (local stack)', () => {
  it('credits the four followers with the routing saving, and the early filler with a missed saving and an unfollowed stop', {
    timeout: 360_000,
  }, async () => {
    // Parked at Dallas three hours ago, all five at 40 %.
    const trucks: Truck[] = [];
    const parkedAt = new Date(Date.now() - 3 * 3_600_000).toISOString();
    for (let i = 0; i < 5; i++) {
      const truck = await guidance.newTruck({ tank_size_gallons: TANK, estimated_mpg: MPG });
      await guidance.drive(truck, [
        {
          latitude: DALLAS.latitude,
          longitude: DALLAS.longitude,
          recorded_at: parkedAt,
          fuel_level_percent: 40,
          speed_mph: 0,
        },
      ]);
      await guidance.waitFor(truck.id, 'the parked breadcrumb', (g) => g.position !== null);
      trucks.push(truck);
    }
    // Guided to Denver: every truck is shown the same stop (same place, same tank).
    const shown: GuidanceStop[] = [];
    for (const truck of trucks) {
      const session = (await guidance.start(truck.id, { destination: DENVER, min_arrival_fuel_percent: 15 }))
        .json;
      expect(session.stops[0], JSON.stringify(session)).toBeDefined();
      shown.push(session.stops[0] as GuidanceStop);
    }
    const stop = shown[0] as GuidanceStop;
    expect(new Set(shown.map((s) => s.station.id))).toEqual(new Set([stop.station.id]));

    // The road north, as POST /v1/routes answers it for the same trip, and where the stop is on it.
    const routed = await prod.post('/v1/routes', {
      ...company,
      idempotencyKey: randomUUID(),
      body: {
        origin: DALLAS,
        destination: DENVER,
        tank_size_gallons: TANK,
        estimated_mpg: MPG,
        fuel_level_percent: 40,
        min_arrival_fuel_percent: 15,
      },
    });
    expect(routed.status, routed.text).toBe(201);
    const line = routeLineOf(routed.json);
    const stopMile = projectOntoRoute(line, stop.station).milesAlongRoute;
    expect(stopMile, `${stop.station.name} is too close to Dallas to fill 55 miles earlier`).toBeGreaterThan(
      EARLY_MILES - 5,
    );

    // The early filler's station: on the corridor 40–70 road miles before the stop (not before
    // Dallas), the dearest net price there, as GET /v1/stations prices it for this fleet.
    const target = Math.max(3, stopMile - EARLY_MILES);
    const around = await prod.get('/v1/stations', {
      ...company,
      query: { ...pointAtMiles(line, target), radius_miles: 25, limit: 25 },
    });
    expect(around.status, around.text).toBe(200);
    const corridor = (around.json.data as Json[]).filter((s) => {
      const at = projectOntoRoute(line, s);
      return (
        s.id !== stop.station.id &&
        at.offRouteMiles <= 1.5 &&
        at.milesAlongRoute >= 2 &&
        stopMile - at.milesAlongRoute >= 30 &&
        stopMile - at.milesAlongRoute <= 80
      );
    });
    expect(corridor.length, 'no station on the corridor before the stop').toBeGreaterThan(0);
    const early = corridor.sort((a, b) => b.net_price_usd_per_gallon - a.net_price_usd_per_gallon)[0] as Json;
    expect(early.net_price_usd_per_gallon).toBeGreaterThan(stop.net_price_usd_per_gallon);

    // The day: four drive to the shown stop and fill, the fifth fills early; each card reports it.
    const fills: { truck: Truck; station: Json; gallons: number }[] = [];
    for (const [i, truck] of trucks.entries()) {
      const station = i === 4 ? early : stop.station;
      const point = { latitude: station.latitude, longitude: station.longitude };
      const drive = await driveToPumps(guidance, truck, line, point, { fillToPercent: FILL_TO_PERCENT });
      const detected = await detectedFill(truck);
      const gallons = Math.round(detected.gallons);
      const card = {
        vehicle_id: truck.id,
        station_id: station.id,
        fueled_at: new Date(drive.departedAtMs - 2 * 60_000).toISOString(),
        gallons,
        price_usd_per_gallon: i === 4 ? early.diesel_price_usd_per_gallon : stop.price_usd_per_gallon,
        discount_usd_per_gallon: i === 4 ? early.discount_usd_per_gallon : stop.discount_usd_per_gallon,
        card_transaction_ref: `CARD-${randomUUID()}`,
      };
      const posted = await prod.post('/v1/fuelings', {
        ...company,
        idempotencyKey: randomUUID(),
        body: { fuelings: [card] },
      });
      expect(posted.status, posted.text).toBe(200);
      expect(posted.json.results[0], posted.text).toMatchObject({ status: 'accepted' });
      fills.push({ truck, station, gallons });
    }

    // The report of yesterday and today (UTC): the drive began hours ago and may straddle midnight.
    const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const report = await prod.get('/v1/reports/savings', {
      ...company,
      query: { from: dayOf(Date.now() - 86_400_000), to: dayOf(Date.now()) },
    });
    expect(report.status, report.text).toBe(200);
    const rowOf = (truck: Truck): Json => {
      const row = (report.json.vehicles as Json[]).find((r) => r.vehicle_id === truck.id);
      expect(row, `no report row for ${truck.ref}`).toBeDefined();
      return row;
    };
    const followers = trucks.slice(0, 4).map(rowOf);
    const earlyRow = rowOf(trucks[4] as Truck);

    // Each truck's fill counted once (the card and its detection are one fill), on the fleet's basis.
    for (const [i, row] of [...followers, earlyRow].entries()) {
      expect(row).toMatchObject({ fuelings: 1, gallons: (fills[i] as (typeof fills)[number]).gallons });
      // The saving is where it bought, against the counterfactual with the card; the card beside it.
      expect(row.savings_usd).toBe(row.routing_savings_usd);
      expect(row.savings_usd).toBeCloseTo(row.counterfactual_spend_usd - row.effective_spend_usd, 2);
      expect(row.card_savings_usd).toBeGreaterThanOrEqual(0);
    }
    // Followers: a routing saving, never below 0, above the early filler's; the stop followed.
    for (const row of followers) {
      expect(row.routing_savings_usd).toBeGreaterThanOrEqual(0);
      expect(row.routing_savings_usd / row.gallons).toBeGreaterThan(
        earlyRow.routing_savings_usd / earlyRow.gallons,
      );
      expect(row).toMatchObject({
        missed_savings_usd: 0,
        recommended_stops: 1,
        followed_stops: 1,
        adherence_rate: 1,
      });
    }
    // The early filler: what buying at the stop would have saved, and the stop it did not follow.
    expect(earlyRow.missed_savings_usd).toBeGreaterThan(0);
    expect(earlyRow.recommended_stops).toBe(1);
    expect(earlyRow.followed_stops).toBe(0);
    expect(earlyRow.adherence_rate).toBeLessThan(1);

    // The totals are the sum of the rows (every vehicle of the fleet in the period, not only these).
    const rows = report.json.vehicles as Json[];
    const sum = (field: string) => Math.round(rows.reduce((total, r) => total + r[field] * 100, 0)) / 100;
    for (const field of [
      'savings_usd',
      'card_savings_usd',
      'routing_savings_usd',
      'missed_savings_usd',
      'spend_usd',
    ]) {
      expect(report.json.totals[field], field).toBeCloseTo(sum(field), 2);
    }
    for (const field of ['fuelings', 'recommended_stops', 'followed_stops']) {
      expect(report.json.totals[field], field).toBe(rows.reduce((total, r) => total + r[field], 0));
    }
    expect(report.json.adherence_rate).toBeLessThan(1);
  });
});
