import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { guidanceClient, secondsAgo } from './support-guidance.ts';

/**
 * Plans under a fleet's fuel card program, through the local stack: the program set with PATCH
 * /v1/fleet, then routes (POST /v1/routes) and guidance (POST /v1/vehicles/{id}/guidance) on
 * Dallas → Denver. A `required` program whose chain has no station in range says so with the
 * shortfall and plans no stop; a `preferred` one chooses an off-program stop only when it beats
 * the penalty, and says so in the stop's reason.
 */

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const partnerKey = { key: credentials.keys.partner_live };
const DALLAS = { latitude: 32.7767, longitude: -96.797 };
const DENVER = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
/** The same end as a station query takes it (a point, no label). */
const DENVER_POINT = { latitude: DENVER.latitude, longitude: DENVER.longitude };
const TANK = 150;
const MPG = 6.5;
/** Guidance's corridor (GUIDANCE_POLICY.corridorWidthMiles): routes asked with it find the same stations. */
const CORRIDOR = 2;

interface CorridorStation {
  id: string;
  name: string;
  chain: string;
  miles_along_route: number;
  off_route_miles: number;
}

const newFleet = async () => {
  const created = await prod.post('/v1/fleets', {
    ...partnerKey,
    body: { name: `Card program ${randomUUID().slice(0, 8)}`, timezone: 'America/Chicago' },
  });
  expect(created.status, created.text).toBe(201);
  return { ...partnerKey, fleet: created.json.id as string };
};

const setProgram = async (
  auth: { key: string; fleet: string },
  rule: 'none' | 'preferred' | 'required',
  chains: readonly string[],
  penalty = 0,
) => {
  const response = await prod.patch('/v1/fleet', {
    ...auth,
    body: {
      fuel_program: {
        rule,
        chains: chains.map((chain) => ({ chain, discount_usd_per_gallon: 0 })),
        off_program_penalty_usd_per_gallon: penalty,
      },
    },
  });
  expect(response.status, response.text).toBe(200);
  expect(response.json.fuel_program.rule).toBe(rule);
};

const route = async (auth: { key: string; fleet: string }, fuelPercent: number) => {
  const response = await prod.post('/v1/routes', {
    ...auth,
    idempotencyKey: randomUUID(),
    body: {
      origin: DALLAS,
      destination: DENVER,
      tank_size_gallons: TANK,
      estimated_mpg: MPG,
      fuel_level_percent: fuelPercent,
      min_arrival_fuel_percent: 15,
      corridor_width_miles: CORRIDOR,
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.json;
};

/** The stations of `chain` on the route, in route order. */
async function chainOnRoute(auth: { key: string; fleet: string }, chain: string) {
  const response = await prod.post('/v1/stations/along-route', {
    ...auth,
    body: {
      origin: DALLAS,
      destination: DENVER_POINT,
      corridor_width_miles: CORRIDOR,
      max_results: 50,
      chain,
    },
  });
  expect(response.status, response.text).toBe(200);
  return (response.json.data as CorridorStation[]).sort((a, b) => a.miles_along_route - b.miles_along_route);
}

/** Every chain on the route, with its stations in route order. */
async function chainsOnRoute(auth: { key: string; fleet: string }) {
  const cheapest = await prod.post('/v1/stations/along-route', {
    ...auth,
    body: { origin: DALLAS, destination: DENVER_POINT, corridor_width_miles: CORRIDOR, max_results: 50 },
  });
  expect(cheapest.status, cheapest.text).toBe(200);
  const chains = [...new Set((cheapest.json.data as CorridorStation[]).map((s) => s.chain))];
  return Promise.all(chains.map(async (chain) => ({ chain, stations: await chainOnRoute(auth, chain) })));
}

describe('a required fuel program with no accepted stop in range', () => {
  // 20 % of 150 gal is 30 gal; the reserve is 10 % (15 gal): 15 gal × 6.5 mpg = 97.5 miles of range.
  const FUEL_PERCENT = 20;
  const RANGE_MILES = 97.5;
  let auth: { key: string; fleet: string };
  let nearest: CorridorStation;
  let chain: string;

  beforeAll(async () => {
    auth = await newFleet();
    // A chain on the route whose first station lies well beyond all the fuel on board (30 gal,
    // 195 miles), while others are in range: guidance dips into the reserve for an accepted
    // station before it blames the program, so the station must be out of reach even so.
    const chains = await chainsOnRoute(auth);
    const far = chains.find(({ stations }) => {
      const first = stations[0];
      return first !== undefined && first.miles_along_route > 30 * MPG + 20;
    });
    if (!far) throw new Error('every chain has a station within 215 miles of Dallas');
    chain = far.chain;
    nearest = far.stations[0] as CorridorStation;
    await setProgram(auth, 'required', [chain]);
  });

  it('POST /v1/routes: status no_accepted_station_in_range, no stops, the nearest accepted stop and the shortfall', async () => {
    const planned = await route(auth, FUEL_PERCENT);

    expect(planned.plan.status).toBe('no_accepted_station_in_range');
    expect(planned.plan.stops).toEqual([]);
    const shortfall = planned.plan.fuel_program_shortfall;
    expect(shortfall).toMatchObject({
      code: 'no_accepted_station_in_range',
      nearest_accepted_stop: {
        station_id: nearest.id,
        name: nearest.name,
        chain,
        miles_along_route: nearest.miles_along_route,
      },
    });
    // Beyond the range: its point on the route plus the way off it, less 97.5 miles.
    const expectedMiles = nearest.miles_along_route + nearest.off_route_miles - RANGE_MILES;
    expect(shortfall.shortfall_miles).toBeCloseTo(expectedMiles, 0);
    expect(shortfall.shortfall_gallons).toBeCloseTo(shortfall.shortfall_miles / MPG, 1);
    expect(planned.plan.reason).toMatch(
      new RegExp(
        `^No station on your fuel card program is within reach: the nearest, ${literal(nearest.name)} at mile `,
      ),
    );
    expect(planned.candidate_station_count).toBeGreaterThan(0);
  });

  it('guidance: phase cannot_reach, plan_status no_accepted_station_in_range, no stops, the same shortfall', async () => {
    const guidance = guidanceClient(prod, auth);
    const truck = await guidance.newTruck({ tank_size_gallons: TANK, estimated_mpg: MPG });
    await guidance.drive(truck, [
      { ...DALLAS, recorded_at: secondsAgo(30), fuel_level_percent: FUEL_PERCENT },
    ]);
    const started = (await guidance.start(truck.id, { destination: DENVER, min_arrival_fuel_percent: 15 }))
      .json as unknown as Record<string, unknown>;

    expect(started).toMatchObject({
      phase: 'cannot_reach',
      stops: [],
      plan_status: 'no_accepted_station_in_range',
      fuel_program_shortfall: {
        code: 'no_accepted_station_in_range',
        nearest_accepted_stop: { station_id: nearest.id, chain },
      },
    });
    const shortfall = started.fuel_program_shortfall as { shortfall_miles: number };
    expect(shortfall.shortfall_miles).toBeCloseTo(
      nearest.miles_along_route + nearest.off_route_miles - RANGE_MILES,
      0,
    );
    expect(started.plan_reason).toMatch(/^No station on your fuel card program is within reach/);
  });
});

describe('a preferred fuel program', () => {
  // 50 % of 150 gal: a stop on the way to Denver, the first in reach of many stations.
  const FUEL_PERCENT = 50;
  let auth: { key: string; fleet: string };
  let offChain: string;
  let acceptedChain: string;

  beforeAll(async () => {
    auth = await newFleet();
    const free = await route(auth, FUEL_PERCENT);
    expect(free.plan.status).toBe('ok');
    offChain = free.plan.stops[0].station.chain;
    // The card is accepted at the chain with the most stations on the route, not the free plan's first.
    const chains = (await chainsOnRoute(auth)).filter((c) => c.chain !== offChain);
    chains.sort((a, b) => b.stations.length - a.stations.length);
    acceptedChain = (chains[0] as { chain: string }).chain;
  });

  it('keeps an off-program stop a small penalty does not outweigh, shows its true prices and says why', async () => {
    await setProgram(auth, 'preferred', [acceptedChain], 0.001);

    const planned = await route(auth, FUEL_PERCENT);

    const off = planned.plan.stops.find(
      (stop: { in_fuel_program: boolean }) => stop.in_fuel_program === false,
    );
    expect(off, JSON.stringify(planned.plan)).toBeDefined();
    expect(off.station.chain).not.toBe(acceptedChain);
    expect(off.reason).toMatch(/ Off your fuel card program \(penalty \$0\.001\/gal\): /);
    expect(off.reason).toMatch(
      /(cheaper than .+, the best accepted stop in reach|no accepted stop is in reach)/,
    );
    // The penalty is never in the shown prices.
    expect(off.discount_usd_per_gallon).toBe(0);
    expect(off.net_price_usd_per_gallon).toBe(off.price_usd_per_gallon);
    expect(off.cost_usd).toBeCloseTo(off.gallons_to_buy * off.net_price_usd_per_gallon, 0);
    for (const stop of planned.plan.stops) {
      expect(stop.in_fuel_program).toBe(stop.station.chain === acceptedChain);
    }
  });

  it('flips the choice to an accepted stop when the penalty outweighs the saving', async () => {
    await setProgram(auth, 'preferred', [acceptedChain], 1);

    const planned = await route(auth, FUEL_PERCENT);

    expect(planned.plan.status).toBe('ok');
    const [first] = planned.plan.stops;
    expect(first.station.chain).toBe(acceptedChain);
    expect(first.in_fuel_program).toBe(true);
    expect(first.reason).not.toMatch(/fuel card program/);
  });
});

/** `text` as a literal in a regular expression. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
