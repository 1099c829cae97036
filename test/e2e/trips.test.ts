import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { expectProblem } from './problem.ts';
import { eventually, guidanceClient, secondsAgo, startReceiver, TIMESTAMP } from './support-guidance.ts';
import {
  DALLAS,
  DENVER,
  dallasToDenver,
  driveTripToFuelStop,
  type TripJson,
  tripClient,
} from './support-trips.ts';
import { ASYNC_EFFECT_TIMEOUT_MS } from './support-waits.ts';

const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const readOnly = { key: credentials.keys.company_readonly };
const [partnerFleet] = credentials.fleets.partner_granted;
const partner = { key: credentials.keys.partner_live, fleet: partnerFleet as string };
const guidance = guidanceClient(prod, company);
const trips = tripClient(prod, company);

const TRIP_ID = /^trip_[0-9A-HJKMNP-TV-Z]{26}$/;
const STOP_ID = /^tsp_[0-9A-HJKMNP-TV-Z]{26}$/;
const UNKNOWN_TRIP = 'trip_00000000000000000000000000';

/** Reads the trip until its stop satisfies `done` (the worker records GPS visits a moment after the events). */
async function tripStopWhen(
  tripId: string,
  stopId: string,
  done: (stop: TripJson) => boolean,
): Promise<TripJson> {
  const deadline = Date.now() + ASYNC_EFFECT_TIMEOUT_MS;
  for (;;) {
    const stop = (await trips.read(tripId)).json.stops.find((s: TripJson) => s.id === stopId);
    if (done(stop)) return stop;
    if (Date.now() > deadline) throw new Error(`timed out; stop is ${JSON.stringify(stop)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A truck that reported from Dallas at `fuel` percent (tank and mpg set). */
async function truckAtDallas(fuel = 40) {
  const truck = await guidance.newTruck();
  await guidance.drive(truck, [
    {
      latitude: DALLAS.latitude,
      longitude: DALLAS.longitude,
      recorded_at: secondsAgo(60),
      fuel_level_percent: fuel,
      speed_mph: 0,
    },
  ]);
  return truck;
}

describe('trips: create, read, list', () => {
  it('creates a planned trip with auto_optimize: fuel stops, plan and counterfactual; GET agrees byte for byte', async () => {
    const truck = await truckAtDallas();
    const body = dallasToDenver(truck, {
      auto_optimize: true,
      stops: [{ type: 'pickup', latitude: 33.2148, longitude: -97.1331, name: 'Denton DC' }],
    });
    const key = randomUUID();
    const response = await prod.post('/v1/trips', { ...company, body, idempotencyKey: key });
    expect(response.status, response.text).toBe(201);
    const trip = response.json;
    expect(trip.id).toMatch(TRIP_ID);
    expect(trip).toMatchObject({
      vehicle_id: truck.id,
      external_ref: truck.ref,
      reference: body.reference,
      status: 'planned',
      auto_optimize: true,
      origin: { latitude: DALLAS.latitude, longitude: DALLAS.longitude, name: 'Dallas' },
      destination: { name: 'Denver' },
      started_at: null,
      completed_at: null,
      cancelled_at: null,
      cancel_reason: null,
      guidance_id: null,
    });
    expect(trip.planned_start_at).toMatch(TIMESTAMP);
    expect(trip.distance_miles).toBeGreaterThan(700);
    expect(trip.polyline.length).toBeGreaterThan(10);
    const fuel = trip.stops.filter((s: TripJson) => s.type === 'fuel');
    expect(fuel.length).toBeGreaterThan(0);
    for (const stop of trip.stops) expect(stop.id).toMatch(STOP_ID);
    expect(trip.stops.map((s: TripJson) => s.sequence)).toEqual(
      trip.stops.map((_: unknown, i: number) => i + 1),
    );
    expect(fuel[0]).toMatchObject({ system_managed: true, fuel: { gallons_to_buy: expect.any(Number) } });
    expect(trip.stops.find((s: TripJson) => s.type === 'pickup')).toMatchObject({
      system_managed: false,
      fuel: null,
    });
    expect(trip.fuel_plan).toMatchObject({
      status: 'ok',
      start_fuel_percent: 40,
      min_arrival_fuel_percent: 10,
      fuel_tax_treatment: 'ifta',
      baseline: { strategy: 'mean_price_in_reach', feasible: true, stop_count: fuel.length },
      savings: { basis: 'same_arrival_fuel', extra_arrival_fuel_gallons: 0 },
    });
    expect(trip.fuel_plan.savings.baseline_cost_usd).toBe(trip.fuel_plan.baseline.cost_usd);
    expect(trip.fuel_plan.optimized_at).toMatch(TIMESTAMP);

    const read = await trips.read(trip.id);
    expect(read.status).toBe(200);
    expect(read.text).toBe(response.text);

    // Idempotent: the same key and body replay the answer; another body with the key is refused.
    const replay = await prod.post('/v1/trips', { ...company, body, idempotencyKey: key });
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(response.text);
    expectProblem(
      await prod.post('/v1/trips', {
        ...company,
        body: { ...body, reference: 'OTHER' },
        idempotencyKey: key,
      }),
      422,
      'idempotency_key_reuse',
    );
    expectProblem(await prod.post('/v1/trips', { ...company, body }), 400, 'idempotency_key_required');
  });

  it('creates a trip without auto_optimize by external_ref: routed, no fuel stops, no plan', async () => {
    const truck = await guidance.newTruck();
    const trip = await trips.create({
      ...dallasToDenver(truck),
      vehicle_id: undefined,
      external_ref: truck.ref,
    });
    expect(trip).toMatchObject({ vehicle_id: truck.id, auto_optimize: false, stops: [], fuel_plan: null });
    expect(trip.distance_miles).toBeGreaterThan(700);
  });

  it('refuses what it cannot plan: 422 insufficient_fuel_data, 409 vehicle_inactive, 422 validation_failed', async () => {
    // Without a reported level the fleet's assumed departure level plans it (fuel-level-fallback.test.ts);
    // a given start level is the dispatcher's own figure.
    const noLevel = await guidance.newTruck();
    const given = await trips.create(
      dallasToDenver(noLevel, { auto_optimize: true, start_fuel_percent: 60 }),
    );
    expect(given.fuel_plan).toMatchObject({ start_fuel_percent: 60, fuel_level_source: 'reported' });

    const noTank = await guidance.newTruck({});
    expectProblem(
      await prod.post('/v1/trips', {
        ...company,
        body: dallasToDenver(noTank, { auto_optimize: true, start_fuel_percent: 50 }),
        idempotencyKey: randomUUID(),
      }),
      422,
      'insufficient_fuel_data',
    );

    const parked = await guidance.newTruck();
    expect((await prod.post(`/v1/vehicles/${parked.id}/deactivate`, company)).status).toBeLessThan(300);
    expectProblem(
      await prod.post('/v1/trips', {
        ...company,
        body: dallasToDenver(parked),
        idempotencyKey: randomUUID(),
      }),
      409,
      'vehicle_inactive',
    );

    const truck = await guidance.newTruck();
    const tooMany = Array.from({ length: 26 }, () => ({ type: 'rest', latitude: 34, longitude: -99 }));
    for (const [body, field] of [
      [{ ...dallasToDenver(truck), external_ref: truck.ref }, 'vehicle_id'],
      [dallasToDenver(truck, { stops: tooMany }), 'stops'],
      [dallasToDenver(truck, { stops: [{ type: 'fuel', latitude: 34, longitude: -99 }] }), 'stops.0.type'],
      [dallasToDenver(truck, { planned_end_at: '2020-01-01T00:00:00Z' }), 'planned_end_at'],
      [dallasToDenver(truck, { origin: { latitude: 95, longitude: 0 } }), 'origin.latitude'],
    ] as const) {
      const response = await prod.post('/v1/trips', { ...company, body, idempotencyKey: randomUUID() });
      expectProblem(response, 422, 'validation_failed');
      expect(response.json.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it('refuses planned times far from now (year 0, 1970, 2999), naming the accepted range; nothing is created', async () => {
    const truck = await guidance.newTruck();
    for (const [fields, field] of [
      [{ planned_start_at: '0000-01-01T00:00:00Z' }, 'planned_start_at'],
      [{ planned_start_at: '1970-01-01T00:00:00Z' }, 'planned_start_at'],
      [{ planned_start_at: '2999-01-01T00:00:00Z' }, 'planned_start_at'],
      [{ planned_end_at: '2999-01-01T00:00:00Z' }, 'planned_end_at'],
      [
        {
          stops: [
            { type: 'pickup', latitude: 33, longitude: -97, planned_arrival_at: '1970-01-01T00:00:00Z' },
          ],
        },
        'stops.0.planned_arrival_at',
      ],
    ] as const) {
      const response = await prod.post('/v1/trips', {
        ...company,
        body: dallasToDenver(truck, fields),
        idempotencyKey: randomUUID(),
      });
      expectProblem(response, 422, 'validation_failed');
      expect(response.json.errors).toEqual([
        {
          field,
          message: expect.stringMatching(
            /^must be between \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ and \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(90 days before to 365 days after now\)$/,
          ),
        },
      ]);
    }
    const listed = await prod.get('/v1/trips', { ...company, query: { vehicle_id: truck.id } });
    expect(listed.json.data).toEqual([]);

    const trip = await trips.create(dallasToDenver(truck));
    const moved = await prod.patch(trips.path(trip.id), {
      ...company,
      body: { planned_start_at: '2999-01-01T00:00:00Z' },
    });
    expectProblem(moved, 422, 'validation_failed');
    expect(moved.json.errors[0].field).toBe('planned_start_at');
    expect((await trips.read(trip.id)).json.planned_start_at).toBe(trip.planned_start_at);
  });

  it('lists by planned start with status, vehicle (veh_ or ext:) and period filters; polyline only on request', async () => {
    const truck = await guidance.newTruck();
    // Three consecutive days a month out (trip times lie within a year of the request).
    const base = Math.floor(Date.now() / 86_400_000 + 30) * 86_400_000;
    const dayOf = (day: number) => new Date(base + day * 86_400_000).toISOString();
    const made: TripJson[] = [];
    for (let day = 0; day < 3; day++) {
      made.push(await trips.create(dallasToDenver(truck, { planned_start_at: dayOf(day) })));
    }
    const ids = (page: TripJson) => page.data.map((t: TripJson) => t.id);
    const mine = await prod.get('/v1/trips', { ...company, query: { vehicle_id: truck.id } });
    expect(mine.status, mine.text).toBe(200);
    expect(ids(mine.json)).toEqual(made.map((t) => t.id));
    expect(mine.json.data[0].polyline).toBeUndefined();
    const byRef = await prod.get('/v1/trips', { ...company, query: { vehicle_id: `ext:${truck.ref}` } });
    expect(ids(byRef.json)).toEqual(made.map((t) => t.id));

    const withPolyline = await prod.get('/v1/trips', {
      ...company,
      query: { vehicle_id: truck.id, include: 'polyline' },
    });
    expect(withPolyline.json.data[0].polyline).toBe(made[0].polyline);
    expectProblem(
      await prod.get('/v1/trips', { ...company, query: { include: 'stops' } }),
      422,
      'validation_failed',
    );

    const window = await prod.get('/v1/trips', {
      ...company,
      query: {
        vehicle_id: truck.id,
        from: dayOf(1),
        to: new Date(Date.parse(dayOf(2)) - 1000).toISOString(),
      },
    });
    expect(ids(window.json)).toEqual([made[1].id]);

    // Pages of one, following the cursor.
    const first = await prod.get('/v1/trips', { ...company, query: { vehicle_id: truck.id, limit: 1 } });
    expect(ids(first.json)).toEqual([made[0].id]);
    const second = await prod.get('/v1/trips', {
      ...company,
      query: { vehicle_id: truck.id, limit: 1, cursor: first.json.next_cursor },
    });
    expect(ids(second.json)).toEqual([made[1].id]);
    expectProblem(
      await prod.get('/v1/trips', { ...company, query: { cursor: 'nope' } }),
      400,
      'invalid_cursor',
    );

    await trips.move(made[2].id, 'start');
    const active = await prod.get('/v1/trips', {
      ...company,
      query: { vehicle_id: truck.id, status: 'active' },
    });
    expect(ids(active.json)).toEqual([made[2].id]);
    await trips.move(made[2].id, 'cancel');
  });

  it("404 for an unknown trip and another fleet's; 403 insufficient_scope without trips:manage", async () => {
    expectProblem(await trips.read(UNKNOWN_TRIP), 404, 'resource_not_found');
    expectProblem(await trips.read('rte_00000000000000000000000000'), 400, 'invalid_public_id');
    const theirTruck = await guidanceClient(prod, partner).newTruck();
    const theirs = await tripClient(prod, partner).create(dallasToDenver(theirTruck));
    expectProblem(await trips.read(theirs.id), 404, 'resource_not_found');
    expectProblem(await prod.post(trips.path(theirs.id, 'start'), company), 404, 'resource_not_found');
    expectProblem(await prod.delete(trips.path(theirs.id), company), 404, 'resource_not_found');
    expect((await tripClient(prod, partner).read(theirs.id)).json.status).toBe('planned');
    // Both lists answer a vehicle outside the fleet alike: 404, never an empty page.
    for (const list of ['/v1/trips', '/v1/fuelings']) {
      const response = await prod.get(list, { ...company, query: { vehicle_id: theirTruck.id } });
      expectProblem(response, 404, 'resource_not_found');
      expect(response.json.detail).toContain(theirTruck.id);
    }

    const denied = await prod.get('/v1/trips', readOnly);
    expectProblem(denied, 403, 'insufficient_scope');
    expect(denied.json.required_scope).toBe('trips:manage');
    expectProblem(
      await prod.post('/v1/trips', { ...readOnly, body: {}, idempotencyKey: randomUUID() }),
      403,
      'insufficient_scope',
    );
  });
});

describe('trips: edit and delete', () => {
  it('PATCH edits a planned trip; a fuel stop sent back unchanged is ignored, a changed one is 422', async () => {
    const truck = await truckAtDallas();
    const trip = await trips.create(dallasToDenver(truck, { auto_optimize: true }));
    const fuel = trip.stops.filter((s: TripJson) => s.type === 'fuel');
    const delivery = { type: 'delivery', latitude: 35.19, longitude: -101.85, name: 'Amarillo DC' };

    const edited = await prod.patch(trips.path(trip.id), {
      ...company,
      body: { reference: 'LOAD-2', stops: [...trip.stops, delivery] },
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json.reference).toBe('LOAD-2');
    expect(edited.json.stops.filter((s: TripJson) => s.type === 'fuel')).toEqual(fuel);
    expect(edited.json.stops.find((s: TripJson) => s.type === 'delivery')).toMatchObject({
      name: 'Amarillo DC',
    });
    expect((await trips.read(trip.id)).text).toBe(edited.text);

    const changed = {
      ...fuel[0],
      fuel: { ...fuel[0].fuel, gallons_to_buy: fuel[0].fuel.gallons_to_buy + 10 },
    };
    const refused = await prod.patch(trips.path(trip.id), { ...company, body: { stops: [changed] } });
    expectProblem(refused, 422, 'fuel_stop_immutable');
    // Any member GET shows counts, the prices and the reason included.
    for (const member of ['price_usd_per_gallon', 'net_price_usd_per_gallon', 'reason']) {
      const edited = { ...fuel[0], fuel: { ...fuel[0].fuel, [member]: member === 'reason' ? 'x' : 0.01 } };
      const answer = await prod.patch(trips.path(trip.id), { ...company, body: { stops: [edited] } });
      expectProblem(answer, 422, 'fuel_stop_immutable');
    }
    const twice = await prod.patch(trips.path(trip.id), {
      ...company,
      body: { stops: [fuel[0], fuel[0]] },
    });
    expectProblem(twice, 422, 'validation_failed');
    expect(twice.json.errors[0].field).toBe('stops.1.id');
    const added = await prod.patch(trips.path(trip.id), {
      ...company,
      body: { stops: [{ type: 'fuel', latitude: 34, longitude: -99 }] },
    });
    expectProblem(added, 422, 'fuel_stop_immutable');

    // A new destination moves the route: the fuel stops are planned again.
    const moved = await prod.patch(trips.path(trip.id), {
      ...company,
      body: { destination: { latitude: 35.222, longitude: -101.8313, name: 'Amarillo' } },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json.distance_miles).toBeLessThan(trip.distance_miles);
    expect(moved.json.fuel_plan.optimized_at >= trip.fuel_plan.optimized_at).toBe(true);

    const tooMany = Array.from({ length: 26 }, () => ({ type: 'rest', latitude: 34, longitude: -99 }));
    const overLimit = await prod.patch(trips.path(trip.id), { ...company, body: { stops: tooMany } });
    expectProblem(overLimit, 422, 'validation_failed');
    expect(overLimit.json.errors[0].field).toBe('stops');
    await trips.move(trip.id, 'start');
    expectProblem(
      await prod.patch(trips.path(trip.id), { ...company, body: { reference: 'X' } }),
      409,
      'trip_not_editable',
    );
    await trips.move(trip.id, 'complete');
    expectProblem(
      await prod.patch(trips.path(trip.id), { ...company, body: { reference: 'X' } }),
      409,
      'trip_not_editable',
    );
  });

  it('DELETE removes a planned trip; an active or ended one is 409 invalid_trip_state', async () => {
    const truck = await guidance.newTruck();
    const planned = await trips.create(dallasToDenver(truck));
    expect((await prod.delete(trips.path(planned.id), company)).status).toBe(204);
    expectProblem(await trips.read(planned.id), 404, 'resource_not_found');

    const active = await trips.create(dallasToDenver(truck));
    await trips.move(active.id, 'start');
    expectProblem(await prod.delete(trips.path(active.id), company), 409, 'invalid_trip_state');
    await trips.move(active.id, 'cancel');
    expectProblem(await prod.delete(trips.path(active.id), company), 409, 'invalid_trip_state');
  });
});

describe.runIf(isLocalTarget())('trips: lifecycle, guidance and events', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let endpointId: string;
  const eventsOf = (tripOrVehicle: string) =>
    receiver.received
      .map((r) => JSON.parse(r.body))
      .filter((e) => e.data?.trip_id === tripOrVehicle || e.data?.vehicle_id === tripOrVehicle)
      .sort((a, b) => a.sequence - b.sequence);

  beforeAll(async () => {
    receiver = await startReceiver();
    const created = await prod.post('/v1/webhooks', {
      ...company,
      body: { url: receiver.url, event_types: ['*'] },
    });
    expect(created.status, created.text).toBe(201);
    endpointId = created.json.id;
  });
  afterAll(async () => {
    if (endpointId) await prod.delete(`/v1/webhooks/${endpointId}`, company);
    await receiver?.close();
  });

  it('start opens guidance with the trip’s fuel stops; complete ends it (trip_completed); events fire once', async () => {
    const truck = await truckAtDallas();
    const trip = await trips.create(dallasToDenver(truck, { auto_optimize: true }));
    const started = await trips.move(trip.id, 'start');
    expect(started).toMatchObject({ status: 'active', started_at: expect.stringMatching(TIMESTAMP) });
    expect(started.guidance_id).toMatch(/^gd_/);
    expect((await trips.read(trip.id)).text).toBe(JSON.stringify(started));

    const session = await guidance.current(truck.id);
    expect(session.id).toBe(started.guidance_id);
    expect(session.destination).toMatchObject({ latitude: DENVER.latitude, longitude: DENVER.longitude });
    const fuelStations = started.stops
      .filter((s: TripJson) => s.type === 'fuel')
      .map((s: TripJson) => s.fuel.station.id);
    expect(session.stops.map((s) => s.station.id)).toEqual(fuelStations);

    expectProblem(await prod.post(trips.path(trip.id, 'start'), company), 409, 'invalid_trip_state');
    const completed = await trips.move(trip.id, 'complete');
    expect(completed).toMatchObject({ status: 'completed', completed_at: expect.stringMatching(TIMESTAMP) });
    expectProblem(await prod.post(trips.path(trip.id, 'complete'), company), 409, 'invalid_trip_state');
    expectProblem(await prod.post(trips.path(trip.id, 'cancel'), company), 409, 'invalid_trip_state');
    expectProblem(await guidance.read(truck.id), 404, 'no_active_guidance');

    await eventually('trip.started, trip.completed and the cleared guidance', () => {
      const types = eventsOf(trip.id).map((e) => e.type);
      const cleared = eventsOf(truck.id).find(
        (e) => e.type === 'guidance.updated' && e.data.reason === 'trip_completed',
      );
      return types.includes('trip.completed') && cleared ? true : undefined;
    });
    const tripEvents = eventsOf(trip.id).filter((e) => e.type.startsWith('trip.'));
    expect(tripEvents.map((e) => e.type)).toEqual(['trip.started', 'trip.completed']);
    expect(tripEvents[0].data).toEqual({
      trip_id: trip.id,
      vehicle_id: truck.id,
      external_ref: truck.ref,
      reference: trip.reference,
      status: 'active',
    });
    expect(tripEvents[1].data.status).toBe('completed');
  });

  it('one active trip per vehicle: a second start is 409 resource_conflict naming the first; cancel frees it', async () => {
    const truck = await guidance.newTruck();
    const first = await trips.create(dallasToDenver(truck));
    const second = await trips.create(dallasToDenver(truck));
    await trips.move(first.id, 'start');
    const conflict = await prod.post(trips.path(second.id, 'start'), company);
    expectProblem(conflict, 409, 'resource_conflict');
    expect(conflict.json.detail).toContain(first.id);
    expect((await trips.read(second.id)).json.status).toBe('planned');

    const cancelled = await trips.move(first.id, 'cancel', { reason: 'driver sick' });
    expect(cancelled).toMatchObject({ status: 'cancelled', cancel_reason: 'driver sick' });
    expect((await trips.move(second.id, 'start')).status).toBe('active');
    await eventually('trip.cancelled with its reason', () =>
      eventsOf(first.id).find((e) => e.type === 'trip.cancelled'),
    );
    expect(eventsOf(first.id).find((e) => e.type === 'trip.cancelled').data).toMatchObject({
      status: 'cancelled',
      reason: 'driver sick',
    });
    await trips.move(second.id, 'cancel');
  });

  it('deactivating the vehicle cancels its active trip with reason vehicle_deactivated', async () => {
    const truck = await guidance.newTruck();
    const trip = await trips.create(dallasToDenver(truck));
    await trips.move(trip.id, 'start');

    const deactivated = await prod.post(`/v1/vehicles/${truck.id}/deactivate`, company);
    expect(deactivated.status, deactivated.text).toBe(200);

    expect((await trips.read(trip.id)).json).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'vehicle_deactivated',
    });
    await eventually('trip.cancelled naming the deactivation', () =>
      eventsOf(trip.id).find((e) => e.type === 'trip.cancelled'),
    );
    expect(eventsOf(trip.id).find((e) => e.type === 'trip.cancelled').data).toMatchObject({
      reason: 'vehicle_deactivated',
    });
  });

  it('two concurrent starts of different trips of one truck: exactly one wins', async () => {
    const truck = await guidance.newTruck();
    const [a, b] = [await trips.create(dallasToDenver(truck)), await trips.create(dallasToDenver(truck))];
    const answers = await Promise.all([a, b].map((t) => prod.post(trips.path(t.id, 'start'), company)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = answers.find((r) => r.status === 200)?.json;
    await trips.move(winner.id, 'cancel');
  });

  it('optimize regenerates the fuel stops of a planned trip; arrive/depart record the dispatcher’s word', async () => {
    const truck = await truckAtDallas(60);
    const trip = await trips.create(
      dallasToDenver(truck, { stops: [{ type: 'pickup', latitude: 33.2148, longitude: -97.1331 }] }),
    );
    expect(trip.fuel_plan).toBeNull();
    const optimized = await trips.move(trip.id, 'optimize');
    expect(optimized.fuel_plan).toMatchObject({ start_fuel_percent: 60 });
    expect(optimized.stops.some((s: TripJson) => s.type === 'fuel')).toBe(true);

    const pickup = optimized.stops.find((s: TripJson) => s.type === 'pickup');
    const arrive = trips.path(trip.id, `stops/${pickup.id}/arrive`);
    const depart = trips.path(trip.id, `stops/${pickup.id}/depart`);
    expectProblem(await prod.post(arrive, company), 409, 'invalid_trip_state');
    await trips.move(trip.id, 'start');
    expect((await prod.post(arrive, company)).status).toBe(204);
    expect((await prod.post(depart, company)).status).toBe(204);
    const visited = (await trips.read(trip.id)).json.stops.find((s: TripJson) => s.id === pickup.id);
    expect(visited.arrived_at).toMatch(TIMESTAMP);
    expect(visited.departed_at >= visited.arrived_at).toBe(true);
    expectProblem(
      await prod.post(trips.path(trip.id, 'stops/tsp_00000000000000000000000000/arrive'), company),
      404,
      'resource_not_found',
    );
    // An active trip is optimized from the truck's position; an ended one not at all.
    expect((await trips.move(trip.id, 'optimize')).status).toBe('active');
    await trips.move(trip.id, 'complete');
    expectProblem(await prod.post(trips.path(trip.id, 'optimize'), company), 409, 'invalid_trip_state');
  });

  it('GPS arrival and departure at a pickup stop set its times and fire events naming the trip and stop', async () => {
    // Reported from Dallas half an hour ago; the breadcrumbs below come after it.
    const truck = await guidance.newTruck();
    await guidance.drive(truck, [
      {
        latitude: DALLAS.latitude,
        longitude: DALLAS.longitude,
        recorded_at: secondsAgo(1800),
        fuel_level_percent: 80,
      },
    ]);
    const dock = { latitude: 32.95, longitude: -96.82 };
    const trip = await trips.create(
      dallasToDenver(truck, { stops: [{ type: 'pickup', ...dock, name: 'North Dallas DC' }] }),
    );
    await trips.move(trip.id, 'start');
    const pickup = trip.stops[0];
    const t0 = Date.now() - 20 * 60_000;
    const at = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString();
    await guidance.drive(truck, [
      { latitude: 32.92, longitude: -96.81, recorded_at: at(0), fuel_level_percent: 79, speed_mph: 30 },
      ...[1, 2, 3, 4, 5, 6].map((m) => ({
        ...dock,
        recorded_at: at(m),
        fuel_level_percent: 79,
        speed_mph: 0,
      })),
      { latitude: 32.99, longitude: -96.83, recorded_at: at(8), fuel_level_percent: 78, speed_mph: 45 },
    ]);
    const arrived = await eventually('vehicle.stop_arrived at the pickup', () =>
      eventsOf(truck.id).find((e) => e.type === 'vehicle.stop_arrived'),
    );
    expect(arrived.data).toMatchObject({ trip_id: trip.id, stop_id: pickup.id, station: null });
    const departed = await eventually('vehicle.stop_departed from the pickup', () =>
      eventsOf(truck.id).find((e) => e.type === 'vehicle.stop_departed'),
    );
    expect(departed.data).toMatchObject({ trip_id: trip.id, stop_id: pickup.id });
    const visited = await tripStopWhen(trip.id, pickup.id, (stop) => stop.departed_at !== null);
    expect(visited).toMatchObject({
      arrived_at: arrived.data.arrived_at,
      departed_at: departed.data.departed_at,
    });
  });

  it('a started trip drives to its fuel stop: vehicle.stop_arrived names the trip and stop; completion ends guidance', {
    timeout: 180_000,
  }, async () => {
    const drive = await driveTripToFuelStop(prod, company);
    const { trip, fuelStop, truck } = drive;
    const arrived = await eventually('vehicle.stop_arrived at the trip’s fuel stop', () =>
      eventsOf(truck.id).find((e) => e.type === 'vehicle.stop_arrived'),
    );
    expect(arrived.data).toMatchObject({
      trip_id: trip.id,
      stop_id: fuelStop.id,
      guidance_id: trip.guidance_id,
    });
    const departed = await eventually('vehicle.stop_departed', () =>
      eventsOf(truck.id).find((e) => e.type === 'vehicle.stop_departed'),
    );
    expect(departed.data).toMatchObject({ trip_id: trip.id, stop_id: fuelStop.id });

    const stop = await tripStopWhen(trip.id, fuelStop.id, (s) => s.departed_at !== null);
    expect(stop.arrived_at).toBe(arrived.data.arrived_at);
    expect(stop.departed_at).toBe(departed.data.departed_at);

    await trips.move(trip.id, 'complete');
    expectProblem(await guidance.read(truck.id), 404, 'no_active_guidance');
    await eventually('the session cleared with trip_completed', () =>
      eventsOf(truck.id).find(
        (e) =>
          e.type === 'guidance.updated' &&
          e.data.guidance_id === trip.guidance_id &&
          e.data.reason === 'trip_completed',
      ),
    );
  });
});
