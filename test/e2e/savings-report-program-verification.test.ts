import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chainKey } from '#shared/fuel-programs/domain/program.ts';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { type Breadcrumb, guidanceClient, type Point, type Truck } from './support-guidance.ts';

/**
 * A fleet's day as its fuel manager reads it: a `required` card program at one chain, four card
 * purchases by one truck — two at the program's chain (one of them 180 gallons into its 100-gallon
 * tank), one at another chain, one at no station with nothing from the truck around it. The
 * savings report splits the spend by program and lists the flagged purchase; integration health
 * shows the share verified. The fleet is a new one of the partner's, so the figures are its own.
 */
const credentials = loadCredentials();
const prod = api(credentials.base_url);
const partnerKey = { key: credentials.keys.partner_live };
// Amarillo, TX: on I-40, where the catalog has stations of several chains within 50 miles.
const AMARILLO = { latitude: 35.222, longitude: -101.831 };
/** Where no catalog station is: the purchase there names none and gets no program side. */
const NOWHERE: Point = { latitude: 39.9, longitude: -117.6 };
const MIN = 60_000;
const HOUR = 60 * MIN;
const iso = (ms: number) => new Date(ms).toISOString();
const utcDay = (ms: number) => iso(ms).slice(0, 10);

interface Station {
  id: string;
  chain: string;
  latitude: number;
  longitude: number;
}

async function newFleet() {
  const created = await prod.post('/v1/fleets', {
    ...partnerKey,
    body: { name: `Report ${randomUUID().slice(0, 8)}`, timezone: 'America/Chicago' },
  });
  expect(created.status, created.text).toBe(201);
  return created.json.id as string;
}

/** Two stations near Amarillo of different chains: the program's, and one off it. */
async function twoChains(auth: { key: string; fleet: string }): Promise<[Station, Station]> {
  const nearby = await prod.get('/v1/stations', {
    ...auth,
    query: { ...AMARILLO, radius_miles: 50, limit: 25 },
  });
  expect(nearby.status, nearby.text).toBe(200);
  const stations = nearby.json.data as Station[];
  const inProgram = stations[0] as Station;
  const offProgram = stations.find((s) => chainKey(s.chain) !== chainKey(inProgram.chain));
  expect(offProgram, nearby.text).toBeDefined();
  return [inProgram, offProgram as Station];
}

/** Breadcrumbs every 5 minutes from 30 before to 15 after `atMs`, at `where` (no fuel level). */
const around = (atMs: number, where: Point): Breadcrumb[] =>
  Array.from({ length: 10 }, (_, i) => ({
    latitude: where.latitude,
    longitude: where.longitude,
    recorded_at: iso(atMs - 30 * MIN + i * 5 * MIN),
  }));

describe('the savings report after a day of card purchases', () => {
  it('splits the spend in and off the program, counts the verdicts and lists the flagged purchase; health shows the share the trucks’ data could check', {
    timeout: 120_000,
  }, async () => {
    const fleetId = await newFleet();
    const auth = { ...partnerKey, fleet: fleetId };
    const [atProgram, atOther] = await twoChains(auth);
    const programmed = await prod.patch(`/v1/fleets/${fleetId}`, {
      ...partnerKey,
      body: {
        fuel_program: {
          rule: 'required',
          chains: [{ chain: atProgram.chain, discount_usd_per_gallon: 0.1 }],
        },
      },
    });
    expect(programmed.status, programmed.text).toBe(200);

    const guidance = guidanceClient(prod, auth);
    const truck: Truck = await guidance.newTruck({ tank_size_gallons: 100, estimated_mpg: 6.5 });
    const now = Date.now();
    const [nowhereAt, firstAt, otherAt, flaggedAt] = [7, 5, 3, 1].map((hours) => now - hours * HOUR) as [
      number,
      number,
      number,
      number,
    ];
    // The truck at the program's station, at the other chain's, and back at the program's; nothing
    // around the purchase at no station.
    await guidance.drive(truck, [
      ...around(firstAt, atProgram),
      ...around(otherAt, atOther),
      ...around(flaggedAt, atProgram),
    ]);

    const card = (fueledAtMs: number, gallons: number, totalUsd: number, where: object) => ({
      vehicle_id: truck.id,
      fueled_at: iso(fueledAtMs),
      gallons,
      total_usd: totalUsd,
      card_transaction_ref: `CARD-${randomUUID()}`,
      ...where,
    });
    const posted = await prod.post('/v1/fuelings', {
      ...auth,
      idempotencyKey: randomUUID(),
      body: {
        fuelings: [
          card(nowhereAt, 40, 143.96, NOWHERE),
          card(firstAt, 60, 215.94, { station_id: atProgram.id }),
          card(otherAt, 50, 179.95, { station_id: atOther.id }),
          card(flaggedAt, 180, 647.82, { station_id: atProgram.id }),
        ],
      },
    });
    expect(posted.status, posted.text).toBe(200);
    const ids = (posted.json.results as { status: string; id: string }[]).map((result) => {
      expect(result.status, posted.text).toBe('accepted');
      return result.id;
    });
    const flaggedId = ids[3];

    const query = { from: utcDay(nowhereAt), to: utcDay(now) };
    for (const scope of [{}, { vehicle_id: truck.id }]) {
      const report = await prod.get('/v1/reports/savings', { ...auth, query: { ...query, ...scope } });
      expect(report.status, report.text).toBe(200);
      expect(report.json.fuel_program, report.text).toEqual({
        rule: 'required',
        in_program: { fills: 2, gallons: 240, spend_usd: 863.76 },
        off_program: { fills: 1, gallons: 50, spend_usd: 179.95 },
        unknown: { fills: 1, gallons: 40, spend_usd: 143.96 },
      });
      const { exceptions, ...counts } = report.json.verification;
      expect(counts, report.text).toEqual({
        verified: 2,
        unverified: 1,
        flagged: 1,
        not_checked: 0,
        exceptions_truncated: false,
      });
      expect(exceptions, report.text).toEqual([
        {
          fueling_id: flaggedId,
          vehicle_id: truck.id,
          fueled_at: expect.stringMatching(new RegExp(`^${iso(flaggedAt).slice(0, 19)}`)),
          gallons: 180,
          station_id: atProgram.id,
          status: 'flagged',
          reasons: expect.arrayContaining([
            {
              code: 'exceeds_tank_size',
              detail: "180 gal is more than the vehicle's 100 gal tank.",
            },
          ]),
        },
      ]);
    }

    const health = await prod.get('/v1/integration/health', { ...partnerKey, query: { fleet_id: fleetId } });
    expect(health.status, health.text).toBe(200);
    expect(health.json.purchase_verification).toEqual({
      reported: 4,
      verified: 2,
      unverified: 1,
      flagged: 1,
      not_checked: 0,
      verified_share: 0.5,
      // The flagged one was checked too: 3 of 4.
      checkable_share: 0.75,
    });
    expect(health.json.counts).toMatchObject({ fuelings_reported_7d: 4, fuelings_verified_7d: 2 });
    expect(
      health.json.checks.find((check: { id: string }) => check.id === 'purchases_verifiable'),
    ).toMatchObject({
      status: 'pass',
      observed: '75% checkable',
    });
  });
});
