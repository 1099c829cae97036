import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';
import { guidanceClient, secondsAgo } from './support-guidance.ts';
import { dallasToDenver, tripClient } from './support-trips.ts';

/**
 * The truck profile through HTTP: set on a fleet and on its vehicle, merged by PATCH, refused with
 * the range and unit, and answered by a route as the profile it was planned for with where each
 * member came from. Each test provisions its own fleet, so no other test's trucks change.
 */

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const partnerKey = { key: credentials.keys.partner_live };
const denver = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
const dallas = { latitude: 32.7767, longitude: -96.797 };

const UNSET = {
  height_inches: null,
  width_inches: null,
  length_feet: null,
  gross_weight_lbs: null,
  axle_count: null,
  hazardous_cargo: null,
};

async function newFleet(body: Record<string, unknown> = {}) {
  const created = await prod.post('/v1/fleets', {
    ...partnerKey,
    body: { name: `Trucks ${randomUUID().slice(0, 8)}`, timezone: 'UTC', ...body },
  });
  expect(created.status, created.text).toBe(201);
  return created.json as { id: string; truck_profile: Record<string, unknown> };
}

describe('truck_profile on fleets and vehicles', () => {
  it('a vehicle’s PATCH merges member by member; its route says vehicle, fleet or standard for each', async () => {
    // Prepare: a fleet of heavy six-axle trucks, and a tanker in it
    const fleet = await newFleet({ truck_profile: { gross_weight_lbs: 97_000, axle_count: 6 } });
    expect(fleet.truck_profile).toEqual({ ...UNSET, gross_weight_lbs: 97_000, axle_count: 6 });
    const auth = { ...partnerKey, fleet: fleet.id };
    const trucks = guidanceClient(prod, auth);
    const truck = await trucks.newTruck({
      tank_size_gallons: 150,
      estimated_mpg: 6.5,
      truck_profile: { height_inches: 150, length_feet: 72 },
    });

    // Act
    const patched = await prod.patch(`/v1/vehicles/${truck.id}`, {
      ...auth,
      body: { truck_profile: { length_feet: null, hazardous_cargo: ['flammable'] } },
    });
    await trucks.drive(truck, [{ ...dallas, recorded_at: secondsAgo(60), fuel_level_percent: 40 }]);
    const route = await prod.post('/v1/routes', {
      ...auth,
      idempotencyKey: randomUUID(),
      body: { vehicle_id: truck.id, destination: denver },
    });

    // Assess
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.truck_profile).toEqual({
      ...UNSET,
      height_inches: 150,
      hazardous_cargo: ['flammable'],
    });
    expect(route.status, route.text).toBe(201);
    expect(route.json.truck_profile).toEqual({
      height_inches: 150,
      width_inches: 102,
      length_feet: 70,
      gross_weight_lbs: 97_000,
      axle_count: 6,
      hazardous_cargo: ['flammable'],
    });
    expect(route.json.truck_profile_sources).toEqual({
      height_inches: 'vehicle',
      width_inches: 'standard',
      length_feet: 'standard',
      gross_weight_lbs: 'fleet',
      axle_count: 'fleet',
      hazardous_cargo: 'vehicle',
    });
    const replayed = await prod.get(`/v1/routes/${route.json.id}`, auth);
    expect(replayed.json.truck_profile_sources).toEqual(route.json.truck_profile_sources);
  });

  it('a trip answers the truck its route was computed for; GET replays it', async () => {
    // Prepare
    const fleet = await newFleet({ truck_profile: { length_feet: 75 } });
    const auth = { ...partnerKey, fleet: fleet.id };
    const truck = await guidanceClient(prod, auth).newTruck({
      tank_size_gallons: 150,
      estimated_mpg: 6.5,
      truck_profile: { hazardous_cargo: [] },
    });
    const trips = tripClient(prod, auth);

    // Act
    const trip = await trips.create(dallasToDenver(truck, { start_fuel_percent: 60, auto_optimize: true }));
    const read = await trips.read(trip.id);

    // Assess
    expect(trip.truck_profile).toEqual({
      height_inches: 162,
      width_inches: 102,
      length_feet: 75,
      gross_weight_lbs: 80_000,
      axle_count: 5,
      hazardous_cargo: [],
    });
    expect(trip.truck_profile_sources).toMatchObject({
      length_feet: 'fleet',
      hazardous_cargo: 'vehicle',
      height_inches: 'standard',
    });
    expect(read.json.truck_profile_sources).toEqual(trip.truck_profile_sources);
  });

  it('truck_profile: null on the fleet leaves a manual route on the standard truck', async () => {
    // Prepare
    const fleet = await newFleet({ truck_profile: { height_inches: 165, hazardous_cargo: ['explosive'] } });
    const auth = { ...partnerKey, fleet: fleet.id };

    // Act
    const cleared = await prod.patch(`/v1/fleets/${fleet.id}`, {
      ...partnerKey,
      body: { truck_profile: null },
    });
    const route = await prod.post('/v1/routes', {
      ...auth,
      idempotencyKey: randomUUID(),
      body: {
        origin: dallas,
        destination: denver,
        tank_size_gallons: 150,
        estimated_mpg: 6.5,
        fuel_level_percent: 40,
      },
    });

    // Assess
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json.truck_profile).toEqual(UNSET);
    expect(route.status, route.text).toBe(201);
    expect(route.json.truck_profile).toEqual({
      height_inches: 162,
      width_inches: 102,
      length_feet: 70,
      gross_weight_lbs: 80_000,
      axle_count: 5,
      hazardous_cargo: [],
    });
    expect(new Set(Object.values(route.json.truck_profile_sources))).toEqual(new Set(['standard']));
  });

  it('a height in centimetres and an unknown cargo class are 422 naming the field, the range and the unit', async () => {
    // Prepare
    const fleet = await newFleet();
    const auth = { ...partnerKey, fleet: fleet.id };
    const truck = await guidanceClient(prod, auth).newTruck();

    // Act
    const response = await prod.patch(`/v1/vehicles/${truck.id}`, {
      ...auth,
      body: { truck_profile: { height_inches: 412, hazardous_cargo: ['class_3'] } },
    });
    const unchanged = await prod.get(`/v1/vehicles/${truck.id}`, auth);

    // Assess
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors).toEqual([
      {
        field: 'truck_profile.height_inches',
        message: 'must be between 72 and 168 inches (6 ft to 14 ft); 13 ft 6 in is 162',
      },
      {
        field: 'truck_profile.hazardous_cargo.0',
        message:
          'must list each class once, from: explosive, gas, flammable, combustible, organic, poison, poison_inhalation, radioactive, corrosive, harmful_to_water, other',
      },
    ]);
    expect(response.text).not.toContain('412');
    expect(unchanged.json.truck_profile).toEqual(UNSET);
  });

  it('PATCH /v1/fleet refuses an unknown member inside truck_profile', async () => {
    // Prepare
    const fleet = await newFleet();

    // Act
    const response = await prod.patch('/v1/fleet', {
      ...partnerKey,
      fleet: fleet.id,
      body: { truck_profile: { height_cm: 412 } },
    });

    // Assess
    expectProblem(response, 422, 'validation_failed');
    expect(response.json.errors).toEqual([
      expect.objectContaining({
        field: 'truck_profile.height_cm',
        message: expect.stringMatching(/^is not a recognized field/),
      }),
    ]);
  });
});
