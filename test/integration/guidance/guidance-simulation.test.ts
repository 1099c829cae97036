import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_PRODUCTION_ACCESS } from '#shared/accounts/domain/account.ts';
import { type EventEnvelope, eventBody } from '#shared/events/domain/envelope.ts';
import { eventRecorderOn } from '#shared/events/wiring/events.ts';
import { UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import { toFleetItem } from '#shared/fleets/store/fleets.ts';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { recordFuelings } from '#shared/fuelings/usecases/fuelings.ts';
import { recordFuelingsDeps } from '#shared/fuelings/wiring/fueling-batches.ts';
import { fuelingStores } from '#shared/fuelings/wiring/fuelings.ts';
import { pointAtMiles } from '#shared/geo/route-line.ts';
import { projectOntoRoute } from '#shared/geo/route-projection.ts';
import type { RouteResult } from '#shared/geo/routing-engine.ts';
import { guidanceResource } from '#shared/guidance/api/serializers.ts';
import type { GuidanceSession } from '#shared/guidance/domain/session.ts';
import { guidanceRouteKey } from '#shared/guidance/store/guidance-routes.ts';
import {
  acknowledgeGuidanceStop,
  cancelGuidance,
  endGuidanceOfDeactivatedVehicle,
  getGuidance,
  skipGuidanceStop,
  startGuidance,
} from '#shared/guidance/usecases/guidance.ts';
import { createGuidancePlanningDeps } from '#shared/guidance/wiring/guidance-planning.ts';
import { type GeoPoint, interpolateGreatCircle } from '#shared/kernel/distance.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { savingsReport } from '#shared/reports/usecases/savings-report.ts';
import { savingsReportDeps } from '#shared/reports/wiring/reports.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import { COMMIT_POLICY } from '#shared/tracking/domain/commit-policy.ts';
import {
  parseVehicleUpdateMessage,
  toVehicleUpdateWire,
  type VehicleUpdateMessage,
} from '#shared/tracking/domain/messages.ts';
import { positionOnlineKeys } from '#shared/tracking/store/online-index.ts';
import { latestPositionKey } from '#shared/tracking/store/vehicle-positions.ts';
import { heartbeatKey, trackingKey } from '#shared/tracking/store/vehicle-tracking.ts';
import { ingestLocations } from '#shared/tracking/usecases/ingest.ts';
import { sweepOfflineVehicles } from '#shared/tracking/usecases/offline-sweep.ts';
import { processVehicleUpdate } from '#shared/tracking/usecases/vehicle-updates.ts';
import { ingestDeps } from '#shared/tracking/wiring/tracking.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { tableStores, vehicleStore } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';
import { guidancePrincipal } from '#test/support/principals.ts';
import { webhookEnvelopeProblems } from '#test/support/published-events.ts';
import { seededRandom } from '#test/support/seeded-random.ts';

/**
 * A simulated truck driven through the real stores (DynamoDB Local), the embedded router and the
 * synthetic catalog: breadcrumbs in through the ingest use case, the guidance worker's cycle after
 * each batch, exactly as the queue would run it. The clock is the breadcrumbs' clock.
 */
const client = testDocumentClient();
const START_MS = Date.parse('2026-11-21T12:00:00Z');
const clock = fixedClock(START_MS);
const DALLAS = { latitude: 32.7767, longitude: -96.797 };
const DENVER = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
const TANK = 150;
const MPG = 6.5;

let table: string;
let infra: TestInfrastructure;
/** The guidance wiring's dependencies, for the sessions' API, the worker's cycle and the sweep alike. */
let deps: ReturnType<typeof createGuidancePlanningDeps>;
let dallasToDenver: RouteResult;
const announced: EventEnvelope[] = [];

beforeAll(async () => {
  table = await createTestTable(client, 'guidance-sim');
  infra = testInfrastructure({ tableName: table, clock });
  // The composition root's guidance wiring, with the fan-out replaced by a list of what was announced.
  deps = createGuidancePlanningDeps(infra, {
    events: eventRecorderOn(infra.client, table, 'prod', clock.now, async (event) => {
      announced.push(event);
    }),
  });
  // The synthetic catalog is priced as of the first use: now, at the start of every drive.
  await stationSources(infra).catalog.current();
  dallasToDenver = await deps.router.route({ origin: DALLAS, destination: DENVER });
});
afterAll(() => deleteTestTable(client, table));

/** What POST and GET guidance answer: the use case's session as its handler serializes it, now. */
const startGuidanceAnswer = async (...args: Parameters<typeof startGuidance>) =>
  guidanceResource(await startGuidance(...args), clock.now());
const getGuidanceAnswer = async (...args: Parameters<typeof getGuidance>) =>
  guidanceResource(await getGuidance(...args), clock.now());

/** A truck of its own fleet, so each test reads only its own events. */
async function newTruck(options: { tank?: number | null } = {}) {
  const fleetId = newId('fleet');
  const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleetId, {
    external_ref: `SIM-${Math.random().toString(36).slice(2, 8)}`,
    ...(options.tank === null ? {} : { tank_size_gallons: options.tank ?? TANK, estimated_mpg: MPG }),
  });
  const eventsOf = (type?: string) =>
    announced.filter((e) => e.fleet_id === fleetId && (type === undefined || e.type === type));
  return { fleetId, vehicle, principal: guidancePrincipal(fleetId), eventsOf };
}

interface Crumb {
  at: number;
  point: GeoPoint;
  fuel?: number | null;
  mph?: number;
}

/**
 * One POST /v1/locations batch (every row accepted), without the worker's cycle: a worker running
 * behind. Received as the newest breadcrumb is recorded, unless `receivedAt` says later (a replay).
 */
async function ingest(fleetId: string, vehicleId: string, crumbs: readonly Crumb[], receivedAt?: number) {
  clock.set(receivedAt ?? Math.max(...crumbs.map((c) => c.at)));
  const response = await ingestLocations(
    ingestDeps(infra),
    fleetId,
    crumbs.map((c) => ({
      vehicle_id: vehicleId,
      latitude: c.point.latitude,
      longitude: c.point.longitude,
      recorded_at: new Date(c.at).toISOString(),
      ...(c.fuel === null || c.fuel === undefined ? {} : { fuel_level_percent: c.fuel }),
      ...(c.mph === undefined ? {} : { speed_mph: c.mph }),
    })),
  );
  expect(response.rejected).toBe(0);
}

/**
 * One POST /v1/locations batch, then the worker's cycle for the vehicle, as the queue would run it
 * (messages of earlier batches the worker was behind on are the same vehicle's: one cycle covers them).
 */
async function report(fleetId: string, vehicleId: string, crumbs: readonly Crumb[], receivedAt?: number) {
  await ingest(fleetId, vehicleId, crumbs, receivedAt);
  // The message as queued: it names the position item's version the batch wrote.
  const queued = infra.sent.vehicleUpdates.take().findLast((m) => m.vehicleId === vehicleId);
  expect(queued).toMatchObject({ fleetId, vehicleId, positionVersion: expect.any(Number) });
  // Through its wire form and back, as the deployed worker receives it.
  const message = parseVehicleUpdateMessage(
    JSON.stringify(toVehicleUpdateWire(queued as VehicleUpdateMessage)),
  );
  expect(message?.positions).toEqual(queued?.positions);
  return processVehicleUpdate(deps, message as VehicleUpdateMessage);
}

/** The same stores, with an events module that cannot record anything. */
const withFailingEvents = (): typeof deps => ({
  ...deps,
  events: {
    record: async () => {
      throw new Error('table throttled');
    },
  },
});

/** A breadcrumb in Dallas at `at`, then guidance to Denver (15 % on arrival), as the API starts it. */
async function guidedFromDallas(truck: Awaited<ReturnType<typeof newTruck>>, at: number, fuel: number) {
  await report(truck.fleetId, truck.vehicle.id, [{ at, point: DALLAS, fuel, mph: 0 }]);
  return startGuidanceAnswer(deps, truck.principal, truck.fleetId, truck.vehicle.id, {
    destination: DENVER,
    min_arrival_fuel_percent: 15,
  });
}

/** The latest-position item as stored (its online index keys included). */
async function positionItemOf(fleetId: string, vehicleId: string) {
  const { Item } = await client.send(
    new GetCommand({ TableName: table, Key: latestPositionKey(fleetId, vehicleId) }),
  );
  return Item;
}

async function sessionOf(fleetId: string, vehicleId: string): Promise<GuidanceSession> {
  const { session } = await deps.tracking.get(fleetId, vehicleId);
  if (!session) throw new Error('no session');
  return session;
}

/** Seeded slosh of ±4 points while moving, so smoothing, not luck, keeps fuelings and alarms honest. */
function slosh(seed: number) {
  const random = seededRandom(seed);
  return () => random() * 8 - 4;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

describe('a simulated truck driving Dallas → Denver', () => {
  it('goes through the phases, stops where told, fuels, goes offline, comes back and arrives', async () => {
    const { fleetId, vehicle, principal, eventsOf } = await newTruck();
    const noise = slosh(7);

    // Started before the first breadcrumb: nothing to plan from yet.
    const started = await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 15,
    });
    expect(started).toMatchObject({ status: 'active', phase: 'awaiting_position', stops: [], revision: 1 });
    expect(eventsOf('guidance.updated').map((e) => e.data.change)).toEqual(['created']);

    // First breadcrumb in Dallas with 24 % in the tank: a plan with at least one stop.
    let t = START_MS + 60_000;
    let fuel = 24;
    let miles = 0;
    await report(fleetId, vehicle.id, [{ at: t, point: DALLAS, fuel, mph: 0 }]);
    let session = await sessionOf(fleetId, vehicle.id);
    expect(['stop_recommended', 'approaching_stop']).toContain(session.phase);
    expect(session.stops.length).toBeGreaterThan(0);
    expect(session.fuel).toMatchObject({ percent: 24, source: 'reported' });
    expect(session.remainingMiles).toBeGreaterThan(700);
    expect(eventsOf('guidance.updated').map((e) => e.data.change)).toEqual(['created', 'refreshed']);
    const firstStop = session.stops[0] as GuidanceSession['stops'][number];
    expect(firstStop.gallonsToBuy).toBeGreaterThan(0);

    // Drive toward the stop at 60 mph, a breadcrumb every 5 minutes, fuel sloshing.
    const exitMiles = firstStop.milesAhead;
    const phases: string[] = [];
    while (miles + 5 < exitMiles) {
      t += 5 * 60_000;
      miles += 5;
      fuel -= (5 / MPG / TANK) * 100;
      await report(fleetId, vehicle.id, [
        { at: t, point: pointAtMiles(dallasToDenver, miles), fuel: round1(fuel + noise()), mph: 60 },
      ]);
      phases.push((await sessionOf(fleetId, vehicle.id)).phase);
    }
    expect(phases).toContain('approaching_stop');
    // The same stop was recommended all the way: small drifts are not news.
    session = await sessionOf(fleetId, vehicle.id);
    expect(session.stops[0]?.id).toBe(firstStop.id);
    expect(eventsOf('guidance.updated')).toHaveLength(2);
    const approaching = eventsOf('guidance.stop_approaching');
    expect(approaching).toHaveLength(1);
    expect(approaching[0]?.data).toMatchObject({ guidance_id: started.id, stop_id: firstStop.id });
    // 24 % fell below 20 % on the way (smoothed through the slosh): one alarm, not one per wobble.
    const lows = eventsOf('vehicle.fuel_low');
    expect(lows).toHaveLength(1);
    expect(lows[0]?.data.fuel_level_percent as number).toBeLessThan(20);

    // The driver acknowledges the stop, pulls in and fuels: 1-minute breadcrumbs at the pumps.
    await acknowledgeGuidanceStop(deps, fleetId, vehicle.id, firstStop.id);
    const station = { latitude: firstStop.latitude, longitude: firstStop.longitude };
    const levels = [fuel, fuel, fuel, fuel + 15, fuel + 35, fuel + 55, 85, 85, 85, 85];
    for (const level of levels) {
      t += 60_000;
      await report(fleetId, vehicle.id, [{ at: t, point: station, fuel: round1(level), mph: 0 }]);
    }
    session = await sessionOf(fleetId, vehicle.id);
    expect(session.phase).toBe('at_stop');
    expect(session.stops[0]?.acknowledgedAtMs).not.toBeNull();
    expect(eventsOf('vehicle.stop_arrived')).toHaveLength(1);
    expect(eventsOf('vehicle.stop_arrived')[0]?.data).toMatchObject({ stop_id: firstStop.id });

    // Back on the road: departure, the fueling (matched to the stop), and a fresh plan from here.
    fuel = 85;
    for (let i = 0; i < 3; i++) {
      t += 5 * 60_000;
      miles = exitMiles + 5 * (i + 1);
      fuel -= (5 / MPG / TANK) * 100;
      await report(fleetId, vehicle.id, [
        { at: t, point: pointAtMiles(dallasToDenver, miles), fuel: round1(fuel), mph: 60 },
      ]);
    }
    expect(eventsOf('vehicle.stop_departed')).toHaveLength(1);
    const recorded = eventsOf('fueling.recorded');
    expect(recorded).toHaveLength(1);
    const gallons = recorded[0]?.data.gallons as number;
    expect(gallons).toBeGreaterThan(80);
    expect(gallons).toBeLessThan(115);
    expect(eventsOf('fueling.matched')).toHaveLength(1);
    expect(eventsOf('fueling.matched')[0]?.data).toMatchObject({
      fueling_id: recorded[0]?.data.fueling_id,
      guidance_id: started.id,
      stop_id: firstStop.id,
    });
    // The fill is on the fleet's record, matched, and the savings report counts the stop followed.
    const fills = await fuelingStores(infra).fuelings.list(fleetId, {}, 10);
    expect(fills.data).toEqual([
      expect.objectContaining({ id: recorded[0]?.data.fueling_id, source: 'detected', stopId: firstStop.id }),
    ]);
    const day = new Date(t).toISOString().slice(0, 10);
    const savings = await savingsReport(savingsReportDeps(infra), fleetId, { from: day, to: day });
    expect(savings.totals).toMatchObject({ fuelings: 1, recommended_stops: 1, followed_stops: 1 });
    session = await sessionOf(fleetId, vehicle.id);
    expect(['no_stop_needed', 'stop_recommended']).toContain(session.phase);
    expect(session.stops.map((s) => s.stationId)).not.toContain(firstStop.stationId);
    expect(eventsOf('guidance.updated').at(-1)?.data.change).toBe(
      session.stops.length ? 'refreshed' : 'cleared',
    );

    // The truck goes silent: the sweep marks it offline once, and a reader sees stale data.
    clock.set(t + 16 * 60_000);
    expect(await sweepOfflineVehicles(deps)).toEqual({ markedOffline: 1, failed: 0 });
    expect(await sweepOfflineVehicles(deps)).toEqual({ markedOffline: 0, failed: 0 });
    expect(eventsOf('vehicle.offline')).toHaveLength(1);
    clock.set(t + 45 * 60_000);
    expect((await getGuidanceAnswer(deps, fleetId, vehicle.id)).phase).toBe('data_stale');

    // It reports again: online, and the rest of the way to Denver.
    t += 45 * 60_000;
    while (miles < dallasToDenver.distanceMiles) {
      miles = Math.min(dallasToDenver.distanceMiles, miles + 5);
      fuel -= (5 / MPG / TANK) * 100;
      t += 5 * 60_000;
      await report(fleetId, vehicle.id, [
        { at: t, point: pointAtMiles(dallasToDenver, miles), fuel: round1(fuel), mph: 60 },
      ]);
      if ((await sessionOf(fleetId, vehicle.id)).status !== 'active') break;
    }
    expect(eventsOf('vehicle.online')).toHaveLength(1);
    session = await sessionOf(fleetId, vehicle.id);
    expect(session).toMatchObject({ status: 'completed', phase: 'arrived', endReason: 'arrived', stops: [] });
    expect(eventsOf('guidance.updated').at(-1)?.data).toMatchObject({
      change: 'cleared',
      status: 'completed',
    });
    await expect(getGuidanceAnswer(deps, fleetId, vehicle.id)).rejects.toMatchObject({
      code: 'no_active_guidance',
    });

    // Every event of this trip is in the fleet's sequence, gap-free and in order.
    const sequences = eventsOf().map((e) => e.sequence);
    expect(sequences).toEqual(sequences.map((_, i) => i + 1));
  });
});

describe('quiet cycles (commit-policy.ts)', () => {
  it("writes an unguided truck's tracking item only now and then, and still detects its fill exactly once", async () => {
    const { fleetId, vehicle, eventsOf } = await newTruck();
    const noise = slosh(11);
    let t = START_MS + 30 * 3_600_000;
    const versions = new Set<number>();
    const step = async (point: GeoPoint, fuel: number, mph: number) => {
      t += 60_000;
      await report(fleetId, vehicle.id, [{ at: t, point, fuel: round1(fuel), mph }]);
      versions.add((await deps.tracking.get(fleetId, vehicle.id)).version);
    };
    await report(fleetId, vehicle.id, [{ at: t, point: DALLAS, fuel: 40, mph: 0 }]);
    // Twenty minutes on the interstate, a sloshing gauge: nothing to announce.
    for (let minute = 1; minute <= 20; minute++) {
      await step(pointAtMiles(dallasToDenver, minute), 40 - minute * 0.2 + noise(), 60);
    }
    const whileDriving = versions.size;
    expect(whileDriving).toBeLessThanOrEqual(Math.ceil(20 / COMMIT_POLICY.maxReplayedFixes) + 1);
    // Parked at the pump, the level rises from 36 % to 90 %, then it drives on.
    const pump = pointAtMiles(dallasToDenver, 20);
    for (let minute = 0; minute < 12; minute++) await step(pump, Math.min(90, 36 + minute * 6), 0);
    for (let mile = 21; mile <= 24; mile++)
      await step(pointAtMiles(dallasToDenver, mile), 90 + noise() / 4, 60);

    // Detected once, exactly as if every cycle had been stored: the rise is the replayed breadcrumbs'.
    const fills = eventsOf('fueling.recorded');
    expect(fills).toHaveLength(1);
    expect(Number(fills[0]?.data.gallons)).toBeGreaterThan(0.45 * TANK);
    // Fewer writes than breadcrumbs (36 cycles), one at least per replay bound.
    expect(versions.size).toBeLessThan(36);
    expect(versions.size).toBeGreaterThanOrEqual(Math.floor(36 / COMMIT_POLICY.maxReplayedFixes));
  });

  it('replays a quiet tail after a long silence: a fill that had not levelled off when the ignition went off', async () => {
    const { fleetId, vehicle, eventsOf } = await newTruck();
    let t = START_MS + 40 * 3_600_000;
    const step = (point: GeoPoint, fuel: number, mph: number) => {
      t += 60_000;
      return report(fleetId, vehicle.id, [{ at: t, point, fuel, mph }]);
    };
    await report(fleetId, vehicle.id, [{ at: t, point: DALLAS, fuel: 40, mph: 0 }]);
    for (let mile = 1; mile <= 10; mile++)
      await step(pointAtMiles(dallasToDenver, mile), 40 - mile * 0.2, 60);
    // At the pump: the level rises over six readings (quiet cycles), then nothing for ten hours.
    const pump = pointAtMiles(dallasToDenver, 10);
    for (const level of [38, 48, 58, 68, 78, 86]) await step(pump, level, 0);
    t += 10 * 3_600_000;
    // Back, full, and on its way: enough breadcrumbs to flush the ring past the quiet tail.
    for (let mile = 11; mile <= 40; mile++) await step(pointAtMiles(dallasToDenver, mile), 90, 60);
    const fills = eventsOf('fueling.recorded');
    expect(fills).toHaveLength(1);
    // From the level before the rise: the readings before the silence were replayed (without them
    // the rise is not seen at all; storing every cycle gives the same figure).
    expect(Number(fills[0]?.data.gallons)).toBeGreaterThan(0.35 * TANK);
  });

  it("writes a guided truck's item every cycle: GET guidance follows every breadcrumb", async () => {
    const truck = await newTruck();
    const { fleetId, vehicle } = truck;
    let t = START_MS + 32 * 3_600_000;
    await guidedFromDallas(truck, t, 95);
    for (let minute = 1; minute <= 5; minute++) {
      t += 60_000;
      await report(fleetId, vehicle.id, [
        { at: t, point: pointAtMiles(dallasToDenver, minute), fuel: 95, mph: 60 },
      ]);
      const answer = await getGuidanceAnswer(deps, fleetId, vehicle.id);
      expect(answer.position?.recorded_at).toBe(new Date(t).toISOString().replace('Z', '000Z'));
    }
  });
});

describe('what a message carries', () => {
  it("reads instead of trusting a message's snapshots on a vehicle's first cycle: a reset deleted what they show", async () => {
    const { fleetId, vehicle } = await newTruck();
    const t = START_MS + 34 * 3_600_000;
    await ingest(fleetId, vehicle.id, [{ at: t, point: DALLAS, fuel: 50, mph: 0 }]);
    const message = infra.sent.vehicleUpdates.take().findLast((m) => m.vehicleId === vehicle.id);
    expect(message?.positions?.latest.recordedAtMs).toBe(t);
    // A sandbox reset deletes the vehicle's position (and tracking) before the queued message runs.
    await client.send(new DeleteCommand({ TableName: table, Key: latestPositionKey(fleetId, vehicle.id) }));
    await processVehicleUpdate(deps, message as VehicleUpdateMessage);
    // Nothing was replayed from the stale snapshot: no tracking item, no last-seen from before.
    const stored = await client.send(
      new GetCommand({ TableName: table, Key: trackingKey(fleetId, vehicle.id) }),
    );
    expect(stored.Item).toBeUndefined();
  });
});

describe('route revisions', () => {
  it('records the route a plan follows in the session, a re-route as a new revision, and moves a session from before revisions onto one', async () => {
    const truck = await newTruck();
    const { fleetId, vehicle } = truck;
    const t = START_MS + 31 * 3_600_000;
    await guidedFromDallas(truck, t, 60);
    const session = await sessionOf(fleetId, vehicle.id);
    const first = session.routeRevision as number;
    expect(first).toEqual(expect.any(Number));
    expect(await deps.routes.get(fleetId, vehicle.id, session.id, first)).toMatchObject({ revision: first });

    // Thirty miles off the route (Fort Worth → Weatherford is on it; Waco is not): a new route, a new revision.
    clock.set(t + 60_000);
    await report(fleetId, vehicle.id, [
      { at: t + 60_000, point: { latitude: 31.5493, longitude: -97.1467 }, fuel: 60, mph: 55 },
    ]);
    const rerouted = (await sessionOf(fleetId, vehicle.id)).routeRevision as number;
    expect(rerouted).toBeGreaterThan(first);
    expect(await deps.routes.get(fleetId, vehicle.id, session.id, first)).not.toBeNull();

    // A session stored before revisions, with its route under the old key: the next cycle moves it onto a revision.
    const tracking = await deps.tracking.get(fleetId, vehicle.id);
    const legacy = { ...(tracking.session as GuidanceSession) };
    delete legacy.routeRevision;
    const old = await deps.routes.get(fleetId, vehicle.id, session.id, rerouted);
    await client.send(
      new PutCommand({
        TableName: table,
        Item: {
          ...guidanceRouteKey(fleetId, vehicle.id, session.id),
          route: { ...old, revision: undefined },
        },
      }),
    );
    await deps.tracking.save({ ...tracking, session: legacy });
    await report(fleetId, vehicle.id, [
      { at: t + 2 * 60_000, point: { latitude: 31.5493, longitude: -97.1467 }, fuel: 60, mph: 0 },
    ]);
    const moved = (await sessionOf(fleetId, vehicle.id)).routeRevision as number;
    expect(moved).toBe(t + 2 * 60_000);
    expect(await deps.routes.get(fleetId, vehicle.id, session.id, moved)).toMatchObject({
      polyline: old?.polyline,
    });
  });
});

describe('the guidance worker on odd deliveries', () => {
  it('changes nothing when a message is redelivered or a late, older breadcrumb arrives', async () => {
    const { fleetId, vehicle, principal, eventsOf } = await newTruck();
    await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 15,
    });
    const t = START_MS + 10 * 60_000;
    await report(fleetId, vehicle.id, [
      { at: t - 60_000, point: DALLAS, fuel: 30, mph: 0 },
      { at: t, point: pointAtMiles(dallasToDenver, 1), fuel: 30, mph: 55 },
    ]);
    const before = await deps.tracking.get(fleetId, vehicle.id);
    const eventCount = eventsOf().length;

    // The same message again, twice at once (two workers): no event, the same plan.
    await Promise.all([
      processVehicleUpdate(deps, { fleetId, vehicleId: vehicle.id }),
      processVehicleUpdate(deps, { fleetId, vehicleId: vehicle.id }),
    ]);
    const after = await deps.tracking.get(fleetId, vehicle.id);
    expect(eventsOf()).toHaveLength(eventCount);
    expect(after.tracker).toEqual(before.tracker);
    expect(after.session?.stops.map((s) => s.id)).toEqual(before.session?.stops.map((s) => s.id));
    expect(after.session?.revision).toBe(before.session?.revision);

    // A breadcrumb from before the last one processed: history keeps it, detection does not replay it.
    await report(fleetId, vehicle.id, [{ at: t - 30_000, point: DENVER, fuel: 100, mph: 0 }]);
    const late = await deps.tracking.get(fleetId, vehicle.id);
    expect(late.tracker).toEqual(before.tracker);
    expect(late.session).toMatchObject({ status: 'active', remainingMiles: before.session?.remainingMiles });
    expect(eventsOf()).toHaveLength(eventCount);
    expect((await deps.positions.recent(fleetId, vehicle.id))?.latest.recordedAtMs).toBe(t);
  });

  it('plans without a skipped station on the next cycle and announces the new stop', async () => {
    const { fleetId, vehicle, principal, eventsOf } = await newTruck();
    await report(fleetId, vehicle.id, [{ at: START_MS + 60_000, point: DALLAS, fuel: 30, mph: 0 }]);
    const started = await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 15,
    });
    const skipped = started.stops[0];
    if (!skipped) throw new Error('expected a stop');
    const updates = eventsOf('guidance.updated').length;
    await skipGuidanceStop(deps, fleetId, vehicle.id, skipped.id, 'closed diesel lane');

    // The replan ran with the skip: the session already shows the new stop.
    const session = await sessionOf(fleetId, vehicle.id);
    expect(session.stops.length).toBeGreaterThan(0);
    expect(session.stops.map((s) => s.stationId)).not.toContain(skipped.station.id);
    expect(session.skipped).toEqual([
      expect.objectContaining({
        stopId: skipped.id,
        stationId: skipped.station.id,
        reason: 'closed diesel lane',
      }),
    ]);
    expect(session.forceReplan).toBe(false);
    expect(eventsOf('guidance.updated')).toHaveLength(updates + 1);
    expect(eventsOf('guidance.updated').at(-1)?.data.change).toBe('refreshed');
    // A later cycle keeps the station out, and a second skip of the same stop changes nothing.
    await processVehicleUpdate(deps, { fleetId, vehicleId: vehicle.id });
    expect((await sessionOf(fleetId, vehicle.id)).stops.map((s) => s.stationId)).not.toContain(
      skipped.station.id,
    );
    await skipGuidanceStop(deps, fleetId, vehicle.id, skipped.id, 'again');
    expect((await sessionOf(fleetId, vehicle.id)).skipped).toHaveLength(1);
    expect(eventsOf('guidance.updated')).toHaveLength(updates + 1);
    // A skipped stop cannot be acknowledged; an unknown one is not found.
    await expect(acknowledgeGuidanceStop(deps, fleetId, vehicle.id, skipped.id)).rejects.toMatchObject({
      code: 'resource_conflict',
    });
    await expect(
      acknowledgeGuidanceStop(deps, fleetId, vehicle.id, newId('guidanceStop')),
    ).rejects.toMatchObject({
      code: 'resource_not_found',
    });
  });

  it('gives a driver who drives past the recommended stop a fresh plan from where they are', async () => {
    const { fleetId, vehicle, principal, eventsOf } = await newTruck();
    // The company this fleet belongs to, as the control plane maps it: re-plans bill to it too.
    await tableStores(infra).accounts.create({
      id: principal.accountId,
      type: 'company',
      name: 'Simulated haulers',
      contactEmail: null,
      timezone: 'America/Chicago',
      planName: 'local-dev',
      liveFleetId: fleetId,
      sandboxFleetId: null,
      productionAccess: NO_PRODUCTION_ACCESS,
      createdAt: new Date(START_MS).toISOString(),
    });
    await report(fleetId, vehicle.id, [{ at: START_MS + 60_000, point: DALLAS, fuel: 45, mph: 0 }]);
    const started = await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 15,
    });
    const missed = started.stops[0];
    if (!missed) throw new Error('expected a stop');
    // Straight past it at 60 mph, a breadcrumb every 5 miles, burning fuel as it goes.
    let t = START_MS + 60_000;
    let fuel = 45;
    const recommended = new Set(started.stops.map((stop) => stop.id));
    for (let miles = 5; miles <= missed.miles_ahead + 15; miles += 5) {
      t += 5 * 60_000;
      fuel -= (5 / MPG / TANK) * 100;
      await report(fleetId, vehicle.id, [
        { at: t, point: pointAtMiles(dallasToDenver, miles), fuel: round1(fuel), mph: 60 },
      ]);
      for (const stop of (await sessionOf(fleetId, vehicle.id)).stops) recommended.add(stop.id);
    }
    const session = await sessionOf(fleetId, vehicle.id);
    // Every station the session ever recommended is charged once: the start's, and each one a
    // worker re-plan added (the budget's count, as the plan records no budget here).
    expect(recommended.size).toBeGreaterThan(started.stops.length);
    const usage = await tableStores(infra).counters.readUsage(principal.accountId, '2026-11');
    expect(usage).toMatchObject({ station_results: recommended.size });
    expect(session.status).toBe('active');
    expect(session.stops.map((s) => s.stationId)).not.toContain(missed.station.id);
    expect(session.stops.length).toBeGreaterThan(0);
    // Planned from here: the new first stop is ahead of the truck, and the change was announced.
    expect(session.stops[0]?.milesAhead).toBeGreaterThan(0);
    expect(session.remainingMiles as number).toBeLessThan(started.remaining_miles as number);
    expect(eventsOf('guidance.updated').at(-1)?.data).toMatchObject({
      change: 'refreshed',
      stop_ids: session.stops.map((s) => s.id),
    });
    // No arrival, no fueling: it never stopped.
    expect(eventsOf('vehicle.stop_arrived')).toHaveLength(0);
    expect(eventsOf('fueling.recorded')).toHaveLength(0);
  });

  it('estimates fuel from miles driven when levels stop coming, and then gives no gallons', async () => {
    const { fleetId, vehicle, principal } = await newTruck();
    await report(fleetId, vehicle.id, [{ at: START_MS + 60_000, point: DALLAS, fuel: 40, mph: 0 }]);
    await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 15,
    });
    let t = START_MS + 60_000;
    for (let miles = 5; miles <= 60; miles += 5) {
      t += 5 * 60_000;
      await report(fleetId, vehicle.id, [{ at: t, point: pointAtMiles(dallasToDenver, miles), mph: 60 }]);
    }
    const session = await sessionOf(fleetId, vehicle.id);
    expect(session.fuel?.source).toBe('projected');
    expect(guidanceResource(session, clock.now())).toMatchObject({
      fuel: { source: 'estimated' },
      fuel_level_source: 'projected',
      fuel_level_as_of: new Date(t).toISOString().replace('Z', '000Z'),
    });
    // ~60 road miles at 6.5 mpg from 40 % of 150 gal: about 6 points lower.
    expect(session.fuel?.percent).toBeGreaterThan(32);
    expect(session.fuel?.percent).toBeLessThan(36);
    expect(session.stops.length).toBeGreaterThan(0);
    expect(session.stops.every((s) => s.gallonsToBuy === null)).toBe(true);
  });

  it("plans a truck that never reported a level from the fleet's assumed departure level, naming stops without gallons", async () => {
    const noSensor = await newTruck();
    await client.send(
      new PutCommand({
        TableName: table,
        Item: toFleetItem({
          id: noSensor.fleetId,
          name: 'No sensors',
          externalRef: null,
          contactEmail: null,
          timezone: 'UTC',
          status: 'active',
          defaultMinArrivalFuelPercent: 15,
          assumedDepartureFuelPercent: 40,
          fuelTaxTreatment: 'ifta',
          fuelProgram: NO_FUEL_PROGRAM,
          truckProfile: { ...UNSET_TRUCK_PROFILE },
          partnerId: null,
          createdAt: '2026-11-01T00:00:00.000000Z',
          updatedAt: '2026-11-01T00:00:00.000000Z',
        }),
      }),
    );
    const { fleetId, vehicle, principal } = noSensor;
    await report(fleetId, vehicle.id, [{ at: START_MS + 60_000, point: DALLAS, mph: 0 }]);
    const started = await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, { destination: DENVER });
    expect(['stop_recommended', 'approaching_stop']).toContain(started.phase);
    expect(started).toMatchObject({
      fuel: null,
      fuel_level_percent: 40,
      fuel_level_source: 'assumed',
      fuel_level_as_of: '2026-11-21T12:01:00.000000Z',
    });
    expect(started.stops.length).toBeGreaterThan(0);
    expect(started.stops.every((s) => s.gallons_to_buy === null)).toBe(true);

    // 60 miles on, still without a level: the assumption is burned down by the miles since.
    let t = START_MS + 60_000;
    for (let miles = 10; miles <= 60; miles += 10) {
      t += 10 * 60_000;
      await report(fleetId, vehicle.id, [{ at: t, point: pointAtMiles(dallasToDenver, miles), mph: 60 }]);
    }
    const later = guidanceResource(await sessionOf(fleetId, vehicle.id), clock.now());
    expect(later).toMatchObject({ fuel: null, fuel_level_source: 'assumed' });
    // ~60 road miles at 6.5 mpg of 150 gal: about 6 points below the assumed 40.
    expect(later.fuel_level_percent).toBeGreaterThan(32);
    expect(later.fuel_level_percent).toBeLessThan(36);
    expect(later.stops.every((s) => s.gallons_to_buy === null)).toBe(true);
  });

  it('gives no extra guidance.updated for a sensor that reports the level on every 5th breadcrumb only', async () => {
    // Two trucks drive the same 40 miles, a breadcrumb a minute: one reports the level on every
    // breadcrumb, the other on every 5th (the level it reports is the same).
    const every = await newTruck();
    const sparse = await newTruck();
    const gallonsSeen: (number | null)[] = [];
    for (const [truck, reportEvery] of [
      [every, 1],
      [sparse, 5],
    ] as const) {
      await guidedFromDallas(truck, START_MS + 60_000, 30);
      for (let minute = 1; minute <= 40; minute++) {
        const fuel = round1(30 - (minute / MPG / TANK) * 100);
        await report(truck.fleetId, truck.vehicle.id, [
          {
            at: START_MS + 60_000 * (minute + 1),
            point: pointAtMiles(dallasToDenver, minute),
            fuel: minute % reportEvery === 0 ? fuel : null,
            mph: 60,
          },
        ]);
        if (truck === sparse) {
          const session = await sessionOf(truck.fleetId, truck.vehicle.id);
          gallonsSeen.push(session.stops[0]?.gallonsToBuy ?? Number.NaN);
        }
      }
    }
    // A level reported within the published window still gives gallons, so they never flip to null.
    expect(gallonsSeen.every((gallons) => typeof gallons === 'number' && gallons > 0)).toBe(true);
    expect(sparse.eventsOf('guidance.updated')).toHaveLength(every.eventsOf('guidance.updated').length);
    expect(sparse.eventsOf('guidance.updated').length).toBeLessThanOrEqual(3);
  });

  it("re-anchors a sensorless truck's assumed level when it leaves a fuel station after a fill-long dwell", async () => {
    const { fleetId, vehicle, principal, eventsOf } = await newTruck();
    let t = START_MS + 60_000;
    await report(fleetId, vehicle.id, [{ at: t, point: DALLAS, mph: 0 }]);
    await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, { destination: DENVER });
    // 300 miles without a level: the assumed full tank is burned down to about two thirds.
    let miles = 0;
    while (miles < 300) {
      t += 20 * 60_000;
      miles += 20;
      await report(fleetId, vehicle.id, [{ at: t, point: pointAtMiles(dallasToDenver, miles), mph: 60 }]);
    }
    let session = await sessionOf(fleetId, vehicle.id);
    expect(session.fuel).toMatchObject({ source: 'assumed' });
    const beforeFill = session.fuel?.percent as number;
    expect(beforeFill).toBeLessThan(70);
    const stop = session.stops[0] as GuidanceSession['stops'][number];
    expect(stop).toBeDefined();

    // At the stop's pumps for 15 minutes, then back on the road 5 miles past its exit.
    for (let i = 0; i < 15; i++) {
      t += 60_000;
      await report(fleetId, vehicle.id, [{ at: t, point: stop, mph: 0 }]);
    }
    t += 5 * 60_000;
    const exitMiles = miles + stop.milesAhead;
    await report(fleetId, vehicle.id, [
      { at: t, point: pointAtMiles(dallasToDenver, exitMiles + 5), mph: 60 },
    ]);
    expect(eventsOf('vehicle.stop_departed')).toHaveLength(1);

    // The fleet's assumed level again, less the few miles since: the plan no longer burns from Dallas.
    session = await sessionOf(fleetId, vehicle.id);
    expect(session.fuel).toMatchObject({ source: 'assumed' });
    expect(session.fuel?.percent).toBeGreaterThan(97);
    expect(session.fuelAssumption).toMatchObject({ percent: 100, filledAtMs: expect.any(Number) });
  });

  it("re-anchors a sensorless truck's assumed level on a reported fill: the level then plus its gallons", async () => {
    const { fleetId, vehicle, principal } = await newTruck();
    let t = START_MS + 60_000;
    await report(fleetId, vehicle.id, [{ at: t, point: DALLAS, mph: 0 }]);
    await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, { destination: DENVER });
    let miles = 0;
    while (miles < 300) {
      t += 20 * 60_000;
      miles += 20;
      await report(fleetId, vehicle.id, [{ at: t, point: pointAtMiles(dallasToDenver, miles), mph: 60 }]);
    }
    const beforeFill = (await sessionOf(fleetId, vehicle.id)).fuel?.percent as number;
    expect(beforeFill).toBeLessThan(70);

    // The card fill is posted: 30 gallons (20 points of 150), then the next breadcrumb a mile on.
    const fueledAt = t + 60_000;
    const posted = await recordFuelings({ ...recordFuelingsDeps(infra), now: () => fueledAt }, fleetId, [
      { vehicle_id: vehicle.id, fueled_at: new Date(fueledAt).toISOString(), gallons: 30, total_usd: 108 },
    ]);
    expect(posted).toMatchObject({ accepted: 1 });
    t += 2 * 60_000;
    await report(fleetId, vehicle.id, [{ at: t, point: pointAtMiles(dallasToDenver, miles + 1), mph: 60 }]);

    const session = await sessionOf(fleetId, vehicle.id);
    expect(session.fuel).toMatchObject({ source: 'assumed' });
    // One mile burned since: 0.1 point.
    expect(session.fuel?.percent).toBeCloseTo(beforeFill + 20, 0);
    expect(session.fuelAssumption).toMatchObject({
      filledAtMs: Date.parse(new Date(fueledAt).toISOString()),
    });
  });

  it('says what is missing: no way to reach anything', async () => {
    // Below the reserve is not "cannot reach": the plan spends the reserve and says so.
    const low = await newTruck();
    await report(low.fleetId, low.vehicle.id, [{ at: START_MS + 60_000, point: DALLAS, fuel: 2, mph: 0 }]);
    const belowReserve = await startGuidanceAnswer(deps, low.principal, low.fleetId, low.vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 15,
    });
    expect(belowReserve.phase).not.toBe('cannot_reach');
    expect(belowReserve.plan_reason).toMatch(/^Below the fuel reserve/);
    // 3 gal × 6.5 mpg: the first stop must be within 19.5 miles, detour included.
    const first = belowReserve.stops[0];
    expect(first).toBeDefined();
    expect((first?.miles_ahead ?? 99) + (first?.detour_miles ?? 0) / 2).toBeLessThanOrEqual(19.5);

    // An empty tank reaches nothing: urgent, with the reason.
    const empty = await newTruck();
    await report(empty.fleetId, empty.vehicle.id, [
      { at: START_MS + 60_000, point: DALLAS, fuel: 0, mph: 0 },
    ]);
    const urgent = await startGuidanceAnswer(deps, empty.principal, empty.fleetId, empty.vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 15,
    });
    expect(urgent).toMatchObject({ phase: 'cannot_reach', stops: [], projected_arrival_fuel_percent: null });
    expect(urgent.plan_reason).toMatch(/No station is within reach/);
  });

  it('ends the session of a deactivated vehicle with reason vehicle_deactivated, announced and archived', async () => {
    const { fleetId, vehicle, principal, eventsOf } = await newTruck();
    const started = await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 15,
    });
    await endGuidanceOfDeactivatedVehicle(deps, fleetId, vehicle.id);
    expect(eventsOf('guidance.updated').at(-1)?.data).toMatchObject({
      guidance_id: started.id,
      change: 'cleared',
      status: 'cancelled',
      reason: 'vehicle_deactivated',
    });
    const archived = await client.send(
      new GetCommand({ TableName: table, Key: { pk: `FLEET#${fleetId}`, sk: `GUIDANCE#${started.id}` } }),
    );
    expect(archived.Item?.session).toMatchObject({ status: 'cancelled', endReason: 'vehicle_deactivated' });
    // Without an active session it does nothing (no event, no write).
    const count = eventsOf().length;
    await endGuidanceOfDeactivatedVehicle(deps, fleetId, vehicle.id);
    expect(eventsOf()).toHaveLength(count);
  });

  it('refuses what guidance cannot do, and cancels with a cleared announcement', async () => {
    const noTank = await newTruck({ tank: null });
    await expect(
      startGuidanceAnswer(deps, noTank.principal, noTank.fleetId, noTank.vehicle.id, {
        destination: DENVER,
        min_arrival_fuel_percent: 15,
      }),
    ).rejects.toMatchObject({ code: 'insufficient_fuel_data' });

    const { fleetId, vehicle, principal, eventsOf } = await newTruck();
    const first = await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 15,
    });
    const second = await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, {
      destination: DALLAS,
      min_arrival_fuel_percent: 10,
    });
    expect(second.id).not.toBe(first.id);
    expect((await getGuidanceAnswer(deps, fleetId, vehicle.id)).id).toBe(second.id);
    expect(eventsOf('guidance.updated').map((e) => [e.data.guidance_id, e.data.change])).toEqual([
      [first.id, 'created'],
      [first.id, 'cleared'],
      [second.id, 'created'],
    ]);
    await cancelGuidance(deps, fleetId, vehicle.id);
    expect(eventsOf('guidance.updated').at(-1)?.data).toMatchObject({
      guidance_id: second.id,
      change: 'cleared',
      reason: 'caller_cancelled',
    });
    const error = await cancelGuidance(deps, fleetId, vehicle.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'no_active_guidance' });
    // Another fleet cannot see or touch this vehicle's guidance.
    const other = await newTruck();
    await expect(getGuidanceAnswer(deps, other.fleetId, vehicle.id)).rejects.toMatchObject({
      code: 'resource_not_found',
    });
  });

  it('finds a silent vehicle by its position item, checks the real receipt time behind the coarse index, and takes it out once offline', async () => {
    const truck = await newTruck();
    const t = START_MS + 5 * 3_600_000;
    const positionItem = () => positionItemOf(truck.fleetId, truck.vehicle.id);
    await report(truck.fleetId, truck.vehicle.id, [{ at: t, point: DALLAS, fuel: 50, mph: 0 }]);
    // Four minutes later: the index keeps the 12-minute bucket of t; the worker may not store this one.
    await report(truck.fleetId, truck.vehicle.id, [{ at: t + 4 * 60_000, point: DALLAS, fuel: 50, mph: 0 }]);
    expect(await positionItem()).toMatchObject(positionOnlineKeys(truck.fleetId, truck.vehicle.id, t));

    // At t+16 the index says silent (bucket t), the vehicle is not (received t+4): no offline.
    clock.set(t + 16 * 60_000);
    await sweepOfflineVehicles(deps);
    expect(truck.eventsOf('vehicle.offline')).toHaveLength(0);
    // At t+20 it really is silent: offline, with its real last-seen time.
    clock.set(t + 20 * 60_000);
    await sweepOfflineVehicles(deps);
    expect(truck.eventsOf('vehicle.offline').map((e) => e.data.last_seen_at)).toEqual([
      new Date(t + 4 * 60_000).toISOString().replace('Z', '000Z'),
    ]);
    // Out of the index; no other item was ever in one.
    expect(await positionItem()).not.toHaveProperty('gsi2pk');
    const stored = await client.send(
      new GetCommand({ TableName: table, Key: trackingKey(truck.fleetId, truck.vehicle.id) }),
    );
    expect(stored.Item).not.toHaveProperty('gsi1pk');
    const marker = await client.send(
      new GetCommand({ TableName: table, Key: heartbeatKey(truck.fleetId, truck.vehicle.id) }),
    );
    expect(marker.Item).toBeUndefined();

    // It reports again: back in the index, online.
    await report(truck.fleetId, truck.vehicle.id, [{ at: t + 25 * 60_000, point: DALLAS, fuel: 50, mph: 0 }]);
    expect(await positionItem()).toMatchObject(
      positionOnlineKeys(truck.fleetId, truck.vehicle.id, t + 25 * 60_000),
    );
    expect(truck.eventsOf('vehicle.online')).toHaveLength(1);
  });

  it('finds silent vehicles through the online index only, and not one that just reported', async () => {
    const quiet = await newTruck();
    const chatty = await newTruck();
    const t = START_MS + 2 * 3_600_000;
    await report(quiet.fleetId, quiet.vehicle.id, [{ at: t, point: DALLAS, fuel: 50, mph: 0 }]);
    await report(chatty.fleetId, chatty.vehicle.id, [{ at: t, point: DALLAS, fuel: 50, mph: 0 }]);
    clock.set(t + 14 * 60_000);
    await report(chatty.fleetId, chatty.vehicle.id, [
      { at: t + 14 * 60_000, point: DALLAS, fuel: 50, mph: 0 },
    ]);
    clock.set(t + 16 * 60_000);
    // Out of time budget before the first vehicle: nothing is marked, the next run does it.
    expect(await sweepOfflineVehicles(deps, -1)).toEqual({ markedOffline: 0, failed: 0 });
    expect(quiet.eventsOf('vehicle.offline')).toHaveLength(0);
    await sweepOfflineVehicles(deps);
    expect(quiet.eventsOf('vehicle.offline')).toHaveLength(1);
    expect(quiet.eventsOf('vehicle.offline')[0]?.data).toMatchObject({ vehicle_id: quiet.vehicle.id });
    expect(chatty.eventsOf('vehicle.offline')).toHaveLength(0);
    // Once offline it leaves the index: later sweeps do not announce it again.
    clock.set(t + 30 * 60_000);
    await sweepOfflineVehicles(deps);
    expect(quiet.eventsOf('vehicle.offline')).toHaveLength(1);
  });
});

describe('follow-up work survives lost races and crashes (the tracking outbox)', () => {
  it('announces nothing from a cycle that lost the race, and the redone cycle announces the ids it stored', async () => {
    const { fleetId, vehicle, principal, eventsOf } = await newTruck();
    await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 15,
    });
    let failures = 1;
    const racing: typeof deps = {
      ...deps,
      tracking: {
        ...deps.tracking,
        // The first save loses to "another writer" (nothing is written), as a version race would.
        save: async (tracking) => (failures-- > 0 ? null : deps.tracking.save(tracking)),
      },
    };
    await ingest(fleetId, vehicle.id, [{ at: START_MS + 60_000, point: DALLAS, fuel: 30 }]);
    await processVehicleUpdate(racing, { fleetId, vehicleId: vehicle.id });
    const refreshed = eventsOf('guidance.updated').filter((e) => e.data.change === 'refreshed');
    expect(refreshed).toHaveLength(1);
    const stored = await sessionOf(fleetId, vehicle.id);
    expect(refreshed[0]?.data.stop_ids).toEqual(stored.stops.map((s) => s.id));
    expect((await deps.tracking.get(fleetId, vehicle.id)).outbox).toBeNull();
  });

  it('keeps the events of a commit whose recording failed, and the next writer records them in order', async () => {
    const { fleetId, vehicle, principal, eventsOf } = await newTruck();
    await report(fleetId, vehicle.id, [{ at: START_MS + 60_000, point: DALLAS, fuel: 30, mph: 0 }]);
    const failingEvents = withFailingEvents();
    // Committed, so the caller gets its 201 even though the announcement failed.
    const started = await startGuidanceAnswer(failingEvents, principal, fleetId, vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 15,
    });
    expect(started.status).toBe('active');
    // The session was committed; its announcement waits in the outbox…
    const pending = await deps.tracking.get(fleetId, vehicle.id);
    expect(pending.session?.status).toBe('active');
    expect(pending.outbox?.events.map((e) => e.type)).toEqual(['guidance.updated']);
    expect(eventsOf('guidance.updated')).toHaveLength(0);
    // …and the next cycle carries it out before its own work.
    await report(fleetId, vehicle.id, [{ at: START_MS + 2 * 60_000, point: DALLAS, fuel: 30, mph: 0 }]);
    expect(eventsOf('guidance.updated').map((e) => e.data.change)).toEqual(['created']);
    expect((await deps.tracking.get(fleetId, vehicle.id)).outbox).toBeNull();
  });

  it('does not lose vehicle.offline when recording it fails: the next sweep announces it', async () => {
    const truck = await newTruck();
    const t = START_MS + 8 * 3_600_000;
    await report(truck.fleetId, truck.vehicle.id, [{ at: t, point: DALLAS, fuel: 50, mph: 0 }]);
    clock.set(t + 16 * 60_000);
    let failures = 1;
    const flaky: typeof deps = {
      ...deps,
      events: {
        record: async (...args) => {
          if (args[1] === 'vehicle.offline' && args[2].vehicle_id === truck.vehicle.id && failures-- > 0) {
            throw new Error('deliveries queue unavailable');
          }
          return deps.events.record(...args);
        },
      },
    };
    await sweepOfflineVehicles(flaky).catch(() => undefined);
    expect(truck.eventsOf('vehicle.offline')).toHaveLength(0);
    expect((await deps.tracking.get(truck.fleetId, truck.vehicle.id)).offline).toBe(true);
    clock.set(t + 17 * 60_000);
    await sweepOfflineVehicles(deps);
    expect(truck.eventsOf('vehicle.offline')).toHaveLength(1);
    // Announced, it leaves the index: no third try.
    await sweepOfflineVehicles(deps);
    expect(truck.eventsOf('vehicle.offline')).toHaveLength(1);
  });

  it('announces and archives a session that starts at its destination', async () => {
    const { fleetId, vehicle, principal, eventsOf } = await newTruck();
    await report(fleetId, vehicle.id, [{ at: START_MS + 60_000, point: DENVER, fuel: 40, mph: 0 }]);
    const started = await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 15,
    });
    expect(started).toMatchObject({ status: 'completed', phase: 'arrived' });
    expect(eventsOf('guidance.updated').map((e) => e.data.change)).toEqual(['created', 'cleared']);
    const archived = await client.send(
      new GetCommand({ TableName: table, Key: { pk: `FLEET#${fleetId}`, sk: `GUIDANCE#${started.id}` } }),
    );
    expect(archived.Item?.session).toMatchObject({
      id: started.id,
      status: 'completed',
      endReason: 'arrived',
    });
  });

  it('counts breadcrumbs the worker has not processed yet as heard from: no false online afterwards', async () => {
    const truck = await newTruck();
    const t = START_MS + 11 * 3_600_000;
    await report(truck.fleetId, truck.vehicle.id, [{ at: t, point: DALLAS, fuel: 50, mph: 0 }]);
    // A breadcrumb lands, but the worker is behind and does not process it yet.
    await ingest(truck.fleetId, truck.vehicle.id, [{ at: t + 60_000, point: DALLAS, fuel: 50 }]);
    clock.set(t + 17 * 60_000);
    await sweepOfflineVehicles(deps);
    expect(truck.eventsOf('vehicle.offline').map((e) => e.data.last_seen_at)).toEqual([
      new Date(t + 60_000).toISOString().replace('Z', '000Z'),
    ]);
    // The worker catches up: that breadcrumb is not news, so no vehicle.online, and no second offline.
    await processVehicleUpdate(deps, { fleetId: truck.fleetId, vehicleId: truck.vehicle.id });
    clock.set(t + 18 * 60_000);
    await sweepOfflineVehicles(deps);
    expect(truck.eventsOf('vehicle.online')).toHaveLength(0);
    expect(truck.eventsOf('vehicle.offline')).toHaveLength(1);
  });

  it('visits an offline vehicle with unfinished work through a marker, and a removal from the index based on an older read keeps a vehicle that just reported', async () => {
    const truck = await newTruck();
    const { fleetId, vehicle, eventsOf } = truck;
    const t = START_MS + 14 * 3_600_000;
    await guidedFromDallas(truck, t, 50);
    clock.set(t + 16 * 60_000);
    await sweepOfflineVehicles(deps);
    const offline = await deps.tracking.get(fleetId, vehicle.id);
    expect(offline.offline).toBe(true);

    // A cancel whose announcement fails: 204 for the caller, the work stays in the outbox…
    const failingEvents = withFailingEvents();
    await cancelGuidance(failingEvents, fleetId, vehicle.id);
    expect((await deps.tracking.get(fleetId, vehicle.id)).outbox?.events).toHaveLength(1);
    // …and the next sweep carries it out although the vehicle is offline, then drops it from the index.
    clock.set(t + 17 * 60_000);
    await sweepOfflineVehicles(deps);
    expect(eventsOf('guidance.updated').at(-1)?.data).toMatchObject({
      change: 'cleared',
      reason: 'caller_cancelled',
    });
    expect((await deps.tracking.get(fleetId, vehicle.id)).outbox).toBeNull();
    const gone = await client.send(
      new GetCommand({ TableName: table, Key: heartbeatKey(fleetId, vehicle.id) }),
    );
    expect(gone.Item).toBeUndefined();

    // The vehicle comes back; a removal from the index based on the item read before that fails.
    const before = await deps.positions.recent(fleetId, vehicle.id);
    const trackingBefore = await deps.tracking.get(fleetId, vehicle.id);
    await report(fleetId, vehicle.id, [{ at: t + 18 * 60_000, point: DALLAS, fuel: 50, mph: 0 }]);
    expect(await deps.tracking.leaveOnlineIndex(trackingBefore, before?.version ?? 0)).toBe(false);
    expect(await positionItemOf(fleetId, vehicle.id)).toMatchObject(
      positionOnlineKeys(fleetId, vehicle.id, t + 18 * 60_000),
    );
  });

  it('puts a vehicle the sweep took out of the index while the worker was behind back in, once its cycle runs (a DLQ redrive)', async () => {
    const truck = await newTruck();
    const t = START_MS + 22 * 3_600_000;
    const positionItem = () => positionItemOf(truck.fleetId, truck.vehicle.id);
    // Its first message fails (to the DLQ): no tracking item yet.
    await ingest(truck.fleetId, truck.vehicle.id, [{ at: t, point: DALLAS, fuel: 50, mph: 0 }]);
    const message = infra.sent.vehicleUpdates.take().findLast((m) => m.vehicleId === truck.vehicle.id);
    clock.set(t + 16 * 60_000);
    await sweepOfflineVehicles(deps);
    expect(await positionItem()).not.toHaveProperty('gsi2pk');
    // The redrive: the cycle runs, and the vehicle is back in the index…
    await processVehicleUpdate(deps, message as VehicleUpdateMessage);
    expect(await positionItem()).toMatchObject(positionOnlineKeys(truck.fleetId, truck.vehicle.id, t));
    // …so, still silent, it goes offline instead of staying online for ever.
    clock.set(t + 17 * 60_000);
    await sweepOfflineVehicles(deps);
    expect(truck.eventsOf('vehicle.offline')).toHaveLength(1);
  });

  it('isolates a vehicle the sweep cannot handle: the rest of the shard still goes offline', async () => {
    const broken = await newTruck();
    const fine = await newTruck();
    const t = START_MS + 20 * 3_600_000;
    await report(broken.fleetId, broken.vehicle.id, [{ at: t, point: DALLAS, fuel: 50, mph: 0 }]);
    await report(fine.fleetId, fine.vehicle.id, [{ at: t, point: DALLAS, fuel: 50, mph: 0 }]);
    clock.set(t + 16 * 60_000);
    const errors: string[] = [];
    const result = await sweepOfflineVehicles({
      ...deps,
      positions: {
        recent: async (fleetId, vehicleId) => {
          if (vehicleId === broken.vehicle.id) throw new Error('read failed');
          return deps.positions.recent(fleetId, vehicleId);
        },
        rejoinOnlineIndex: deps.positions.rejoinOnlineIndex,
      },
      onError: (vehicle) => errors.push(vehicle.vehicleId),
    });
    expect(errors).toEqual([broken.vehicle.id]);
    expect(result.failed).toBeGreaterThanOrEqual(1);
    expect(fine.eventsOf('vehicle.offline')).toHaveLength(1);
    expect(broken.eventsOf('vehicle.offline')).toHaveLength(0);
  });
});

/**
 * The drive of a truck that leaves Dallas north on I-35 with 22 % of its 150 gal: 29 minutes in
 * city traffic (5.5 road miles) with a gauge sloshing ±1 %, then I-35 at 62 mph, one breadcrumb a
 * minute; it exits to the stop it was shown, fuels to 92 % over ten minutes and rejoins I-35.
 */
function drive(exitMiles: number, station: GeoPoint, startMs: number): Crumb[] {
  const random = seededRandom(26);
  const gauge = (level: number) => round1(level + random() * 2 - 1);
  const crumbs: Crumb[] = [];
  let t = startMs;
  let fuel = 22;
  const at = (point: GeoPoint, level: number | null, mph: number) => {
    crumbs.push({ at: t, point, fuel: level, mph });
    t += 60_000;
  };
  for (let i = 0; i <= 29; i++) at(pointAtMiles(dallasToDenver, (5.5 * i) / 29), gauge(fuel), 12);
  let miles = 5.5;
  while (miles + 1.03 < exitMiles) {
    miles += 1.03;
    fuel -= (1.03 / MPG / TANK) * 100;
    at(pointAtMiles(dallasToDenver, miles), gauge(fuel), 62);
  }
  // Down the ramp and along the surface road, then ten minutes at the pumps.
  const exit = pointAtMiles(dallasToDenver, exitMiles);
  for (const f of [0.35, 0.7]) at(interpolateGreatCircle(exit, station, f), gauge(fuel), 30);
  const arrival = round1(fuel);
  const pumped = [1, 2, 3, 4, 5].map((i) => round1(arrival + ((92 - arrival) * i) / 6));
  for (const level of [arrival, arrival, arrival, ...pumped, 92, 92, 92, 92]) at(station, level, 0);
  for (const f of [0.6, 0.2]) at(interpolateGreatCircle(exit, station, f), gauge(92), 30);
  miles = exitMiles;
  for (let i = 0; i < 12; i++) {
    miles += 1.03;
    at(pointAtMiles(dallasToDenver, miles), gauge(92 - ((miles - exitMiles) / MPG / TANK) * 100), 62);
  }
  return crumbs;
}

// Runs last: it reads the events every scenario above recorded (run the whole file, not one test).
describe('event time: a buffered upload gives the events of the live feed', () => {
  /** Events as a webhook consumer compares them: ids that differ between trucks named by first use. */
  function comparable(events: readonly EventEnvelope[]) {
    const names = new Map<string, string>();
    const rename = (value: unknown): unknown => {
      if (typeof value === 'string' && /^([a-z]+_[0-9A-Z]{26}|SIM-\w+)$/.test(value)) {
        if (!names.has(value)) names.set(value, `id${names.size}`);
        return names.get(value);
      }
      if (Array.isArray(value)) return value.map(rename);
      if (value && typeof value === 'object') {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rename(v)]));
      }
      return value;
    };
    return events.map((e) => ({ type: e.type, data: rename(e.data) }));
  }

  it('matches the fill at the stop shown, and the live and the buffered truck announce the same', async () => {
    const startMs = START_MS + 3 * 86_400_000;
    const trucks = { live: await newTruck(), buffered: await newTruck() };
    const shown: Record<string, Awaited<ReturnType<typeof startGuidanceAnswer>>> = {};
    for (const [kind, truck] of Object.entries(trucks)) {
      const { fleetId, vehicle, principal } = truck;
      // The first 29 minutes arrive as one buffered upload for both; then guidance starts.
      const city = drive(100, DALLAS, startMs).slice(0, 30);
      if (kind === 'live') for (const crumb of city) await report(fleetId, vehicle.id, [crumb]);
      else await report(fleetId, vehicle.id, city);
      shown[kind] = await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, {
        destination: DENVER,
        min_arrival_fuel_percent: 15,
      });
    }
    // On the road ahead of the truck (not back through downtown) 22 % reaches Oklahoma.
    const first = shown.live?.stops[0];
    if (!first) throw new Error('expected a stop');
    expect(first.station.name).toMatch(/I-35/);
    expect(shown.buffered?.stops.map((s) => s.station.id)).toEqual(
      shown.live?.stops.map((s) => s.station.id),
    );
    const station = { latitude: first.station.latitude, longitude: first.station.longitude };
    const exitMiles = projectOntoRoute(dallasToDenver, station).milesAlongRoute;
    const rest = drive(exitMiles, station, startMs).slice(30);

    for (const crumb of rest) await report(trucks.live.fleetId, trucks.live.vehicle.id, [crumb]);
    // The buffered truck's provider posts 29 minutes at a time, the last batch shuffled.
    for (let i = 0; i < rest.length; i += 29) {
      const batch = rest.slice(i, i + 29);
      const ordered = i + 29 >= rest.length ? [...batch].reverse() : batch;
      await report(trucks.buffered.fleetId, trucks.buffered.vehicle.id, ordered);
    }

    const live = trucks.live.eventsOf();
    const types = live.map((e) => e.type);
    // The stop shown is never withdrawn on the way: approached, arrived at, fuelled at, matched, left.
    expect(types.filter((t) => t !== 'guidance.updated' && t !== 'vehicle.fuel_low')).toEqual([
      'guidance.stop_approaching',
      'vehicle.stop_arrived',
      'fueling.recorded',
      'fueling.matched',
      'vehicle.stop_departed',
    ]);
    const updates = trucks.live.eventsOf('guidance.updated');
    const beforeDeparture = updates.filter(
      (e) => e.sequence < (trucks.live.eventsOf('vehicle.stop_departed')[0]?.sequence ?? 0),
    );
    expect(beforeDeparture.map((e) => (e.data.stop_ids as string[])[0])).toEqual(
      beforeDeparture.map(() => first.id),
    );
    expect(trucks.live.eventsOf('fueling.matched')[0]?.data).toMatchObject({
      guidance_id: shown.live?.id,
      stop_id: first.id,
    });
    // Same events, same data (times included), whichever way the breadcrumbs came.
    expect(comparable(trucks.buffered.eventsOf())).toEqual(comparable(live));
    // And the same report: the fill at the stop shown counts as followed.
    const day = new Date(startMs).toISOString().slice(0, 10);
    for (const truck of Object.values(trucks)) {
      const savings = await savingsReport(savingsReportDeps(infra), truck.fleetId, { from: day, to: day });
      expect(savings.totals).toMatchObject({ fuelings: 1, followed_stops: 1 });
    }
  });
});

describe('event time: a recorded day replayed', () => {
  it('matches the fill at the stop shown when guidance started from the stale first breadcrumb', async () => {
    const dayMs = START_MS + 5 * 86_400_000;
    // Replayed the next day: every breadcrumb arrives a day after it was recorded.
    const replayedAt = (crumb: Crumb) => crumb.at + 86_400_000;
    const { fleetId, vehicle, principal, eventsOf } = await newTruck();
    const [first] = drive(100, DALLAS, dayMs);
    if (!first) throw new Error('expected a breadcrumb');
    await report(fleetId, vehicle.id, [first], replayedAt(first));
    const started = await startGuidanceAnswer(deps, principal, fleetId, vehicle.id, {
      destination: DENVER,
      min_arrival_fuel_percent: 15,
    });
    const shown = started.stops[0];
    if (!shown) throw new Error('expected a stop');
    // Planned now from a position a day old: dated by the request until the replay says otherwise.
    expect(Date.parse(shown.recommended_at)).toBe(replayedAt(first));

    const station = { latitude: shown.station.latitude, longitude: shown.station.longitude };
    const exitMiles = projectOntoRoute(dallasToDenver, station).milesAlongRoute;
    const rest = drive(exitMiles, station, dayMs).slice(1);
    for (let i = 0; i < rest.length; i += 29) {
      const batch = rest.slice(i, i + 29);
      await report(fleetId, vehicle.id, batch, replayedAt(batch.at(-1) as Crumb));
    }

    // Matched at the stop shown, on the worker's path and in the records.
    expect(eventsOf('fueling.matched').map((e) => e.data)).toEqual([
      expect.objectContaining({ guidance_id: started.id, stop_id: shown.id }),
    ]);
    const { data } = await fuelingStores(infra).fuelings.list(fleetId, {}, 25);
    expect(data).toEqual([expect.objectContaining({ stopId: shown.id, unmatchedReason: null })]);
    const record = await fuelingStores(infra).recommendations.get(fleetId, vehicle.id, shown.id);
    expect(record).toMatchObject({ recommendedAtMs: first.at, followedFuelingId: data[0]?.id });
    // The report counts it on the day driven.
    const day = new Date(dayMs).toISOString().slice(0, 10);
    const savings = await savingsReport(savingsReportDeps(infra), fleetId, { from: day, to: day });
    expect(savings.totals).toMatchObject({ fuelings: 1, followed_stops: 1 });
  });
});

describe('the published event payloads', () => {
  it('match what was recorded: each delivery’s bytes are its type’s webhook as openapi.json publishes it', () => {
    const seen = new Set<string>();
    for (const event of announced) {
      const delivered = JSON.parse(eventBody(event));
      expect(webhookEnvelopeProblems(delivered), `${event.type}: ${eventBody(event)}`).toEqual([]);
      seen.add(event.type);
    }
    // This file's scenarios produce every vehicle and guidance type of the catalog.
    expect([...seen].sort()).toEqual(
      [
        'fueling.matched',
        'fueling.recorded',
        'guidance.stop_approaching',
        'guidance.updated',
        'vehicle.fuel_low',
        'vehicle.offline',
        'vehicle.online',
        'vehicle.stop_arrived',
        'vehicle.stop_departed',
      ].sort(),
    );
  });
});
