import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';
import { asApiTimestamp, guidanceClient, secondsAgo, type Truck } from './support-guidance.ts';
import { DALLAS, DENVER, dallasToDenver, tripClient } from './support-trips.ts';

/**
 * A truck without a fuel sensor still gets a trip, a route and a plan: its level is projected from
 * the last one it reported, or, when it never reported one, assumed from the fleet's
 * assumed_departure_fuel_percent; every answer says which (fuel_level_source) and as of when.
 */

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const partnerKey = { key: credentials.keys.partner_live };
/** Downtown Dallas, and ten miles up I-35 from it as the crow flies (breadcrumbs carry no name). */
const IN_DALLAS = { latitude: DALLAS.latitude, longitude: DALLAS.longitude };
const NORTH_OF_DALLAS = { latitude: DALLAS.latitude + 0.145, longitude: DALLAS.longitude };

let auth: { key: string; fleet: string };
let guidance: ReturnType<typeof guidanceClient>;
let trips: ReturnType<typeof tripClient>;

beforeAll(async () => {
  const created = await prod.post('/v1/fleets', {
    ...partnerKey,
    body: {
      name: `No sensors ${randomUUID().slice(0, 8)}`,
      timezone: 'UTC',
      assumed_departure_fuel_percent: 35,
    },
  });
  expect(created.status, created.text).toBe(201);
  expect(created.json.assumed_departure_fuel_percent).toBe(35);
  auth = { ...partnerKey, fleet: created.json.id };
  guidance = guidanceClient(prod, auth);
  trips = tripClient(prod, auth);
});

async function route(truck: Truck) {
  const response = await prod.post('/v1/routes', {
    ...auth,
    idempotencyKey: randomUUID(),
    body: { vehicle_id: truck.id, destination: DENVER, min_arrival_fuel_percent: 15 },
  });
  expect(response.status, response.text).toBe(201);
  return response.json;
}

describe("the fleet's assumed_departure_fuel_percent", () => {
  it('is 100 on a fleet that never set it, and changes within 0–100 on PATCH /v1/fleets/{id}', async () => {
    const plain = await prod.post('/v1/fleets', {
      ...partnerKey,
      body: { name: `Plain ${randomUUID().slice(0, 8)}`, timezone: 'UTC' },
    });
    expect(plain.json.assumed_departure_fuel_percent).toBe(100);

    const patched = await prod.patch(`/v1/fleets/${auth.fleet}`, {
      ...partnerKey,
      body: { assumed_departure_fuel_percent: 30 },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.assumed_departure_fuel_percent).toBe(30);
    const refused = await prod.patch(`/v1/fleets/${auth.fleet}`, {
      ...partnerKey,
      body: { assumed_departure_fuel_percent: 120 },
    });
    expectProblem(refused, 422, 'validation_failed');
    expect(refused.json.errors).toEqual([
      { field: 'assumed_departure_fuel_percent', message: 'must be a number from 0 to 100' },
    ]);
    expect((await prod.get(`/v1/fleets/${auth.fleet}`, partnerKey)).json.assumed_departure_fuel_percent).toBe(
      30,
    );
  });
});

describe('a truck whose latest breadcrumb has no fuel level, after one that had', () => {
  let truck: Truck;
  const lastAt = secondsAgo(120);

  beforeAll(async () => {
    truck = await guidance.newTruck();
    await guidance.drive(truck, [
      // Reported more than 15 minutes before the latest breadcrumb: too old to give gallons.
      { ...IN_DALLAS, recorded_at: secondsAgo(1800), fuel_level_percent: 50, speed_mph: 0 },
      { ...NORTH_OF_DALLAS, recorded_at: lastAt, speed_mph: 60 },
    ]);
  });

  it('gets a trip with auto_optimize (201), planned from the level projected to that breadcrumb', async () => {
    const trip = await trips.create(
      dallasToDenver(truck, { auto_optimize: true, min_arrival_fuel_percent: 15 }),
    );
    expect(trip.fuel_plan).toMatchObject({
      fuel_level_source: 'projected',
      fuel_level_as_of: asApiTimestamp(lastAt),
    });
    // 10 great-circle miles × 1.1 ÷ 6.5 mpg of 150 gal: about 1.1 points burned.
    expect(trip.fuel_plan.start_fuel_percent).toBeGreaterThan(48);
    expect(trip.fuel_plan.start_fuel_percent).toBeLessThan(50);
    expect(trip.stops.some((stop: { type: string }) => stop.type === 'fuel')).toBe(true);
  });

  it('gets a route in vehicle-shortcut form from the projected level', async () => {
    const planned = await route(truck);
    expect(planned.fuel).toMatchObject({
      fuel_level_source: 'projected',
      fuel_level_as_of: asApiTimestamp(lastAt),
    });
    expect(planned.fuel.start_fuel_percent).toBeLessThan(50);
  });

  it('gets guidance that names its stops, without gallons to buy from a report 28 minutes back', async () => {
    const started = (await guidance.start(truck.id, { destination: DENVER })).json;
    expect(started).toMatchObject({
      fuel_level_source: 'projected',
      fuel_level_as_of: asApiTimestamp(lastAt),
      fuel: { source: 'estimated', level_percent: started.fuel_level_percent },
    });
    expect(started.stops.length).toBeGreaterThan(0);
    expect(started.stops.map((stop) => stop.gallons_to_buy)).toEqual(started.stops.map(() => null));
  });
});

describe('a truck that never reported a fuel level', () => {
  let truck: Truck;
  const lastAt = secondsAgo(60);

  beforeAll(async () => {
    truck = await guidance.newTruck();
    await guidance.drive(truck, [{ ...IN_DALLAS, recorded_at: lastAt, speed_mph: 0 }]);
  });

  it("gets a trip (201) from the fleet's assumed departure level", async () => {
    const trip = await trips.create(
      dallasToDenver(truck, { auto_optimize: true, min_arrival_fuel_percent: 15 }),
    );
    expect(trip.fuel_plan).toMatchObject({ start_fuel_percent: 30, fuel_level_source: 'assumed' });
    expect(trip.stops.some((stop: { type: string }) => stop.type === 'fuel')).toBe(true);
  });

  it('gets a route and guidance from it; guidance names its stops without gallons and no sensor reading', async () => {
    expect((await route(truck)).fuel).toMatchObject({
      start_fuel_percent: 30,
      fuel_level_source: 'assumed',
      fuel_level_as_of: asApiTimestamp(lastAt),
    });
    const started = (await guidance.start(truck.id, { destination: DENVER })).json;
    expect(started).toMatchObject({
      fuel: null,
      fuel_level_percent: 30,
      fuel_level_source: 'assumed',
      fuel_level_as_of: asApiTimestamp(lastAt),
    });
    expect(['stop_recommended', 'approaching_stop']).toContain(started.phase);
    expect(started.stops.length).toBeGreaterThan(0);
    expect(started.stops.map((stop) => stop.gallons_to_buy)).toEqual(started.stops.map(() => null));
  });

  it('still answers 422 insufficient_fuel_data for a vehicle without tank size or mpg', async () => {
    const noTank = await guidance.newTruck({});
    await guidance.drive(noTank, [{ ...IN_DALLAS, recorded_at: secondsAgo(60) }]);
    const response = await prod.post('/v1/trips', {
      ...auth,
      body: dallasToDenver(noTank, { auto_optimize: true }),
      idempotencyKey: randomUUID(),
    });
    expectProblem(response, 422, 'insufficient_fuel_data');
  });
});
