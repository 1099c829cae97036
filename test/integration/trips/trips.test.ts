import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#shared/api/route-table.ts';
import { endGuidanceOfDeactivatedVehicle } from '#shared/guidance/usecases/guidance.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { generateApiKey, hashApiKey } from '#shared/keys/domain/api-key.ts';
import { createApiKeyStore } from '#shared/keys/store/api-keys.ts';
import { createCounters } from '#shared/plans/store/counters.ts';
import { createPlanStore } from '#shared/plans/store/plans.ts';
import { actingFleetId, actingPrincipal } from '#shared/platform/http/acting.ts';
import { createHttpHandler } from '#shared/platform/http/handler.ts';
import { createIdempotencyStore } from '#shared/platform/http/idempotency.ts';
import type { PlatformDeps } from '#shared/platform/http/platform-deps.ts';
import { created, type HttpEvent } from '#shared/platform/http/types.ts';
import { createDynamoClient } from '#shared/table/dynamo-client.ts';
import type { CreateTripBody } from '#shared/trips/api/schemas.ts';
import { tripResource } from '#shared/trips/api/serializers.ts';
import { sweepTripOutboxes } from '#shared/trips/usecases/trip-follow-up.ts';
import { recordTripStopVisits } from '#shared/trips/usecases/trip-stop-visits.ts';
import {
  cancelTripOfDeactivatedVehicle,
  createTrip,
  endTrip,
  optimizeTrip,
  startTrip,
  type TripDeps,
  updateTrip,
} from '#shared/trips/usecases/trips.ts';
import { tripDeps } from '#shared/trips/wiring/trips.ts';
import type { VehicleStore } from '#shared/vehicles/store/vehicles.ts';
import { createVehicle, deactivateVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleStore } from '#shared/wiring/table-stores.ts';
import {
  createTestTable,
  deleteTestTable,
  dynamoDbEndpoint,
  testDocumentClient,
} from '#test/support/dynamodb.ts';
import { testInfrastructure } from '#test/support/infrastructure.ts';
import { testKeyRecord } from '#test/support/keys.ts';
import { dispatcherPrincipal } from '#test/support/principals.ts';

const client = testDocumentClient();
const clock = fixedClock(Date.parse('2026-11-23T12:00:00Z'));
const fleetId = newId('fleet');
const dispatcher = dispatcherPrincipal(fleetId);
let table: string;
let deps: TripDeps;
let vehicles: VehicleStore;
const recorded: { type: string; data: Record<string, unknown>; eventId: string }[] = [];
/** Distinct stored events of a type about one trip or vehicle (a repeated record of one is the same event). */
const storedEvents = (type: string, field: string, value: string) =>
  new Set(recorded.filter((e) => e.type === type && e.data[field] === value).map((e) => e.eventId));

beforeAll(async () => {
  table = await createTestTable(client, 'trips');
  const infra = testInfrastructure({ tableName: table, clock });
  const real = tripDeps(infra);
  vehicles = vehicleStore(infra);
  // The real recorder (DynamoDB, dedupe keys), watched: each event as it was stored, by id.
  deps = {
    ...real,
    events: {
      record: async (fleet, type, data, options) => {
        const envelope = await real.events.record(fleet, type, data, options);
        recorded.push({ type, data, eventId: envelope.id });
        return envelope;
      },
    },
  };
});
afterAll(() => deleteTestTable(client, table));

async function newTruck(ref: string) {
  const { vehicle } = await createVehicle({ vehicles, clock }, fleetId, {
    external_ref: ref,
    tank_size_gallons: 150,
    estimated_mpg: 6.5,
  });
  return vehicle;
}

const tripBody = (vehicleId: string, fields: Partial<CreateTripBody> = {}): CreateTripBody => ({
  vehicle_id: vehicleId,
  origin: { latitude: 32.7767, longitude: -96.797, name: 'Dallas' },
  destination: { latitude: 35.222, longitude: -101.8313, name: 'Amarillo' },
  planned_start_at: '2026-11-24T08:00:00Z',
  auto_optimize: false,
  ...fields,
});

describe('one active trip per vehicle, under concurrency', () => {
  it('of two trips started at once, one becomes active and the other is 409 resource_conflict naming it', async () => {
    const truck = await newTruck('CONC-1');
    const [a, b] = await Promise.all([
      createTrip(deps, dispatcher, fleetId, tripBody(truck.id)),
      createTrip(deps, dispatcher, fleetId, tripBody(truck.id)),
    ]);
    const results = await Promise.allSettled([
      startTrip(deps, fleetId, a.id),
      startTrip(deps, fleetId, b.id),
    ]);
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ code: 'resource_conflict' });
    expect(lost[0].message).toContain(won[0]?.id);
    const loser = (won[0]?.id === a.id ? b : a).id;
    expect((await deps.trips.get(fleetId, loser))?.status).toBe('planned');
    expect(recorded.filter((e) => e.type === 'trip.started' && e.data.vehicle_id === truck.id)).toHaveLength(
      1,
    );

    // Ending the winner frees the vehicle for the other.
    await endTrip(deps, fleetId, won[0]?.id as string, 'complete');
    expect((await startTrip(deps, fleetId, loser)).status).toBe('active');
  });

  it('the same trip started twice at once: one start, one invalid_trip_state, one trip.started', async () => {
    const truck = await newTruck('CONC-2');
    const trip = await createTrip(deps, dispatcher, fleetId, tripBody(truck.id));
    const results = await Promise.allSettled([
      startTrip(deps, fleetId, trip.id),
      startTrip(deps, fleetId, trip.id),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({
      reason: { code: 'invalid_trip_state' },
    });
    expect(storedEvents('trip.started', 'trip_id', trip.id).size).toBe(1);
    const stored = await deps.trips.get(fleetId, trip.id);
    expect(stored).toMatchObject({ status: 'active', outbox: null });
  });
});

describe('PATCH moving a trip without auto_optimize', () => {
  it('drops the fuel stops and the plan /optimize made for the old route', async () => {
    const truck = await newTruck('MOVE-1');
    const trip = await createTrip(deps, dispatcher, fleetId, tripBody(truck.id, { start_fuel_percent: 15 }));
    const optimized = await optimizeTrip(deps, dispatcher, fleetId, trip.id);
    expect(optimized.fuelPlan).not.toBeNull();
    expect(optimized.stops.some((s) => s.type === 'fuel')).toBe(true);

    const moved = await updateTrip(deps, dispatcher, fleetId, trip.id, {
      destination: { latitude: 35.1983, longitude: -101.9, name: 'West Amarillo' },
    });

    expect(moved.fuelPlan).toBeNull();
    expect(moved.stops.filter((s) => s.type === 'fuel')).toEqual([]);
    expect(await deps.trips.get(fleetId, trip.id)).toMatchObject({ fuelPlan: null, stops: [] });
  });
});

describe('the trip outbox after a committed change', () => {
  it('a follow-up that fails still answers the change; the sweep carries it out a minute later', async () => {
    const truck = await newTruck('OUTBOX-1');
    const trip = await createTrip(deps, dispatcher, fleetId, tripBody(truck.id));
    let failures = 1;
    const flaky: TripDeps = {
      ...deps,
      events: {
        record: async (...args) => {
          if (failures-- > 0) throw new Error('event store unavailable');
          return deps.events.record(...args);
        },
      },
    };

    const started = await startTrip(flaky, fleetId, trip.id);

    expect(started.status).toBe('active');
    expect(storedEvents('trip.started', 'trip_id', trip.id).size).toBe(0);
    expect((await deps.trips.get(fleetId, trip.id))?.outbox).not.toBeNull();
    // Not yet: a pending outbox is its own request's for a minute.
    expect(await sweepTripOutboxes(deps)).toEqual({ carriedOut: 0, failed: 0 });

    clock.advance(61_000);
    const swept = await sweepTripOutboxes(deps);

    expect(swept.carriedOut).toBeGreaterThanOrEqual(1);
    expect(storedEvents('trip.started', 'trip_id', trip.id).size).toBe(1);
    expect((await deps.trips.get(fleetId, trip.id))?.outbox).toBeNull();
    // Carried out and forgotten: the next run finds nothing of it.
    clock.advance(61_000);
    expect(await sweepTripOutboxes(deps)).toEqual({ carriedOut: 0, failed: 0 });
  });

  it('a GPS visit saved after the outbox was carried out does not bring it back', async () => {
    const truck = await newTruck('OUTBOX-2');
    const trip = await createTrip(
      deps,
      dispatcher,
      fleetId,
      tripBody(truck.id, { stops: [{ type: 'pickup', latitude: 33.5, longitude: -98.5 }] }),
    );
    await startTrip(deps, fleetId, trip.id);
    const stored = await deps.trips.get(fleetId, trip.id);
    expect(stored?.outbox).toBeNull();
    const pickup = stored?.stops.find((s) => s.type === 'pickup');
    // The visit read the trip before the start's outbox was cleared.
    const staleRead = { ...stored, outbox: { events: [], guidance: 'start' as const } } as typeof stored;

    await recordTripStopVisits(
      { trips: { ...deps.trips, get: async () => staleRead }, now: deps.now },
      fleetId,
      [
        {
          type: 'vehicle.stop_arrived',
          dedupeKey: 'arrived',
          data: { trip_id: trip.id, stop_id: pickup?.id, arrived_at: new Date(clock.now()).toISOString() },
        },
      ],
    );

    const after = await deps.trips.get(fleetId, trip.id);
    expect(after?.stops.find((s) => s.id === pickup?.id)?.arrivedAtMs).toBe(clock.now());
    expect(after?.outbox).toBeNull();
  });
});

describe('deactivating a vehicle', () => {
  it('cancels its active trip (vehicle_deactivated, trip.cancelled) and keeps its planned ones unstartable', async () => {
    const truck = await newTruck('DEACT-1');
    const active = await createTrip(deps, dispatcher, fleetId, tripBody(truck.id));
    const planned = await createTrip(deps, dispatcher, fleetId, tripBody(truck.id));
    await startTrip(deps, fleetId, active.id);
    const deactivation = {
      vehicles,
      clock,
      endGuidance: (fleet: string, vehicle: string) =>
        endGuidanceOfDeactivatedVehicle(deps.guidance, fleet, vehicle),
      cancelActiveTrip: (fleet: string, vehicle: string) =>
        cancelTripOfDeactivatedVehicle(deps, fleet, vehicle),
    };

    await deactivateVehicle(deactivation, fleetId, truck.id);
    await deactivateVehicle(deactivation, fleetId, truck.id);

    expect(await deps.trips.get(fleetId, active.id)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'vehicle_deactivated',
      outbox: null,
    });
    const cancelled = recorded.filter((e) => e.type === 'trip.cancelled' && e.data.trip_id === active.id);
    expect(new Set(cancelled.map((e) => e.eventId)).size).toBe(1);
    expect(cancelled[0]?.data).toMatchObject({ status: 'cancelled', reason: 'vehicle_deactivated' });
    expect(await deps.trips.activeTripOf(fleetId, truck.id)).toBeNull();
    await expect(startTrip(deps, fleetId, planned.id)).rejects.toMatchObject({ code: 'vehicle_inactive' });
    expect((await deps.trips.get(fleetId, planned.id))?.status).toBe('planned');
  });
});

describe('POST /v1/trips through the HTTP chain', () => {
  const rawClient = createDynamoClient({ region: 'us-east-1', endpoint: dynamoDbEndpoint() });
  const context = { awsRequestId: 'test', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
  const platform = (): PlatformDeps => {
    const keys = createApiKeyStore(client, table);
    const plans = createPlanStore(client, table);
    return {
      stage: 'prod',
      clock,
      findKey: (hash) => keys.findByHash(hash),
      hasGrant: async () => false,
      plan: (name) => plans.get(name),
      counters: createCounters(client, table),
      idempotencyStore: (operationId) => createIdempotencyStore(table, rawClient, operationId),
    };
  };
  const post = (key: string, body: unknown, idempotencyKey: string): HttpEvent =>
    ({
      version: '2.0',
      routeKey: 'POST /v1/trips',
      rawPath: '/v1/trips',
      rawQueryString: '',
      headers: {
        authorization: `Bearer ${key}`,
        host: 'api.test',
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      requestContext: { domainName: 'api.test', http: { method: 'POST', path: '/v1/trips' } },
      body: JSON.stringify(body),
      isBase64Encoded: false,
    }) as unknown as HttpEvent;

  /** A company key of this fleet holding `trips:manage`, on a plan with no station budget. */
  async function tripsKeyOnPlan(planName: string): Promise<string> {
    await createPlanStore(client, table).put({
      name: planName,
      rateLimitPerMin: 1000,
      monthlyQuota: {},
      stationQueryBudget: 0,
      priceQueryCap: 25,
    });
    const key = generateApiKey('live');
    await createApiKeyStore(client, table).create(
      hashApiKey(key),
      testKeyRecord({
        keyId: newId('apiKey'),
        name: planName,
        ownerType: 'company',
        partnerId: null,
        fleetId,
        mode: 'live',
        scopes: ['trips:manage'],
        status: 'active',
        planName,
        createdAt: '2026-11-23T00:00:00.000000Z',
      }),
    );
    return key;
  }

  /** POST /v1/trips through the real HTTP chain (idempotency, limits), as its handler wires it. */
  const createTripHandler = () =>
    createHttpHandler(
      routes.createTrip,
      async ({ body }, ctx) =>
        created(tripResource(await createTrip(deps, actingPrincipal(ctx), actingFleetId(ctx), body))),
      platform,
    );

  it('creates once for a repeated Idempotency-Key and replays the same bytes', async () => {
    const key = await tripsKeyOnPlan('trips-test');
    const truck = await newTruck('IDEM-1');
    const handler = createTripHandler();
    const body = { ...tripBody(truck.id), reference: 'LOAD-77' };
    const first = await handler(post(key, body, 'trip-once'), context);
    const second = await handler(post(key, body, 'trip-once'), context);
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    const listed = await deps.trips.list(fleetId, { vehicleId: truck.id }, 10, undefined);
    expect(listed.data.map((t) => t.id)).toEqual([JSON.parse(first.body ?? '{}').id]);
  });

  it('answers 429 station_budget_exceeded for a trip whose fuel stops cross the budget, storing nothing', async () => {
    const key = await tripsKeyOnPlan('trips-no-stations');
    const truck = await newTruck('HTTP-BUDGET-1');
    const handler = createTripHandler();
    const body = tripBody(truck.id, { auto_optimize: true, start_fuel_percent: 15 });

    const response = await handler(post(key, body, 'trip-over-budget'), context);

    expect(response.statusCode, response.body).toBe(429);
    expect(JSON.parse(response.body ?? '{}')).toMatchObject({
      code: 'station_budget_exceeded',
      limit: 0,
      // The account's stations so far (earlier trips of this fleet), none of this refused one.
      used:
        (await createCounters(client, table).readUsage(dispatcher.accountId, '2026-11')).station_results ?? 0,
    });
    expect((await deps.trips.list(fleetId, { vehicleId: truck.id }, 10, undefined)).data).toEqual([]);
  });
});

describe('the station-query budget of a trip’s fuel stops', () => {
  const withBudget = async (name: string, stationQueryBudget: number) => {
    await createPlanStore(client, table).put({
      name,
      rateLimitPerMin: 1_000,
      monthlyQuota: {},
      stationQueryBudget,
      priceQueryCap: 25,
    });
    return dispatcherPrincipal(fleetId, name);
  };
  // Dallas → Amarillo on 15 % of a tank must buy: the trip has fuel stops, each a station result.
  const lowTank = (vehicleId: string) => tripBody(vehicleId, { auto_optimize: true, start_fuel_percent: 15 });
  const usage = () => createCounters(client, table).readUsage(dispatcher.accountId, '2026-11');

  it('refuses a trip whose fuel stops would cross a tiny budget, storing and charging nothing', async () => {
    const truck = await newTruck('BUDGET-1');
    const tiny = await withBudget('trips-tiny-budget', 0);
    const before = await usage();

    const refused = await createTrip(deps, tiny, fleetId, lowTank(truck.id)).catch((error: unknown) => error);

    expect(refused).toMatchObject({ code: 'station_budget_exceeded', extensions: { limit: 0 } });
    expect((await deps.trips.list(fleetId, { vehicleId: truck.id }, 10, undefined)).data).toEqual([]);
    expect(await usage()).toEqual(before);
  });

  it('charges a trip under the budget its fuel stops, shown in the month’s station count', async () => {
    const truck = await newTruck('BUDGET-2');
    const roomy = await withBudget('trips-roomy-budget', 1_000);
    const before = (await usage()).station_results ?? 0;

    const trip = await createTrip(deps, roomy, fleetId, lowTank(truck.id));

    const fuelStops = trip.stops.filter((s) => s.type === 'fuel').length;
    expect(fuelStops).toBeGreaterThan(0);
    expect((await usage()).station_results).toBe(before + fuelStops);
    expect(await deps.trips.get(fleetId, trip.id)).toMatchObject({ id: trip.id });
  });

  it('a refused /optimize leaves the stored trip as it was', async () => {
    const truck = await newTruck('BUDGET-3');
    const planned = await createTrip(
      deps,
      dispatcher,
      fleetId,
      tripBody(truck.id, { start_fuel_percent: 15 }),
    );
    const tiny = await withBudget('trips-tiny-budget', 0);

    await expect(optimizeTrip(deps, tiny, fleetId, planned.id)).rejects.toMatchObject({
      code: 'station_budget_exceeded',
    });

    expect(await deps.trips.get(fleetId, planned.id)).toMatchObject({
      version: planned.version,
      fuelPlan: null,
      stops: [],
    });
  });
});
