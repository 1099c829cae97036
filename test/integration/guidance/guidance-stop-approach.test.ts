import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventEnvelope, eventBody } from '#shared/events/domain/envelope.ts';
import { eventRecorderOn } from '#shared/events/wiring/events.ts';
import { type CorridorStation, corridorStations } from '#shared/geo/corridor.ts';
import { pointAtMiles } from '#shared/geo/route-line.ts';
import type { RouteResult } from '#shared/geo/routing-engine.ts';
import type { GuidanceSession } from '#shared/guidance/domain/session.ts';
import { cancelGuidance, skipGuidanceStop, startGuidance } from '#shared/guidance/usecases/guidance.ts';
import { createGuidancePlanningDeps } from '#shared/guidance/wiring/guidance-planning.ts';
import { type GeoPoint, haversineMiles, interpolateGreatCircle } from '#shared/kernel/distance.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import { ingestLocations } from '#shared/tracking/usecases/ingest.ts';
import { processVehicleUpdate } from '#shared/tracking/usecases/vehicle-updates.ts';
import { ingestDeps } from '#shared/tracking/wiring/tracking.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleStore } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';
import { guidancePrincipal } from '#test/support/principals.ts';
import { webhookEnvelopeProblems } from '#test/support/published-events.ts';
import { seededRandom } from '#test/support/seeded-random.ts';

/**
 * A truck that leaves the interstate for a recommended stop: "Independent I-35 Oklahoma", 1.4 miles
 * off I-35 on the embedded Dallas → Denver route. The truck leaves the interstate just past the
 * station's point on the route, drives the surface road to it, fuels 36 → 87 % in 14 minutes
 * and drives back; the stop must not be replaced after the exit, so the arrival, at_stop and
 * fueling.matched all happen. Breadcrumbs with real timestamps (one a minute on the interstate, every
 * 30 seconds on the ramps and surface road), speeds and a sloshing gauge, through the real ingest,
 * worker cycle and stores (DynamoDB Local), the embedded router and the synthetic catalog.
 */
const client = testDocumentClient();
const START_MS = Date.parse('2026-11-22T14:00:00Z');
const clock = fixedClock(START_MS);
const DALLAS = { latitude: 32.7767, longitude: -96.797 };
const DENVER = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
const TANK = 150;
const MPG = 6.5;
const PERCENT_PER_MILE = 100 / MPG / TANK;

let table: string;
let infra: TestInfrastructure;
let deps: ReturnType<typeof createGuidancePlanningDeps>;
let route: RouteResult;
/** The recommended station of the report, and another corridor station before it. */
let denton: CorridorStation;
let otherStation: CorridorStation;
const announced: EventEnvelope[] = [];

beforeAll(async () => {
  table = await createTestTable(client, 'guidance-approach');
  infra = testInfrastructure({ tableName: table, clock });
  deps = createGuidancePlanningDeps(infra, {
    events: eventRecorderOn(infra.client, table, 'prod', clock.now, async (event) => {
      announced.push(event);
    }),
  });
  const index = await stationSources(infra).catalog.current();
  route = await deps.router.route({ origin: DALLAS, destination: DENVER });
  const corridor = corridorStations(index, route, 2);
  const found = corridor.find((c) => c.station.name === 'Independent I-35 Oklahoma');
  if (!found) throw new Error('the embedded route no longer passes Independent I-35 Oklahoma');
  denton = found;
  // The report's geometry: a station 1–2 miles off the route.
  expect(denton.offRouteMiles).toBeGreaterThan(1);
  expect(denton.offRouteMiles).toBeLessThan(2);
  otherStation = corridor.find(
    (c) => c.station.id !== denton.station.id && c.milesAlongRoute < denton.milesAlongRoute - 30,
  ) as CorridorStation;
  expect(otherStation).toBeDefined();
});
afterAll(() => deleteTestTable(client, table));

async function newTruck() {
  const fleetId = newId('fleet');
  const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleetId, {
    external_ref: `APPROACH-${Math.random().toString(36).slice(2, 8)}`,
    tank_size_gallons: TANK,
    estimated_mpg: MPG,
  });
  const eventsOf = (...types: string[]) =>
    announced.filter((e) => e.fleet_id === fleetId && (types.length === 0 || types.includes(e.type)));
  return { fleetId, vehicle, principal: guidancePrincipal(fleetId), eventsOf };
}

interface Crumb {
  at: number;
  point: GeoPoint;
  fuel: number;
  mph: number;
}

/** The point `miles` road miles from the start of the route. */
const pointAt = (miles: number): GeoPoint => pointAtMiles(route, miles);

/**
 * A scripted drive: along the route, straight to a point (ramps, the surface road), or parked.
 * The gauge burns fuel by the miles driven and sloshes ±4 points while moving, ±1 at rest.
 */
class Drive {
  readonly crumbs: Crumb[] = [];
  private t: number;
  private here: GeoPoint;
  private level: number;
  private readonly random = seededRandom(10);

  constructor(startMiles: number, startMs: number, level: number) {
    this.t = startMs;
    this.here = pointAt(startMiles);
    this.level = level;
    this.crumbs.push({ at: this.t, point: this.here, fuel: level, mph: 0 });
  }

  get levelNow() {
    return this.level;
  }

  private push(point: GeoPoint, seconds: number, mph: number, slosh: number) {
    this.level -= haversineMiles(this.here, point) * 1.1 * PERCENT_PER_MILE;
    this.t += seconds * 1000;
    this.here = point;
    const noise = (this.random() * 2 - 1) * slosh;
    this.crumbs.push({ at: this.t, point, fuel: Math.round((this.level + noise) * 10) / 10, mph });
  }

  /** Along the route at 60 mph, a breadcrumb a minute (a mile). */
  along(fromMiles: number, toMiles: number): this {
    let miles = fromMiles;
    for (; miles + 1 < toMiles; miles += 1) this.push(pointAt(miles + 1), 60, 60, 4);
    this.push(pointAt(toMiles), Math.round((toMiles - miles) * 60), 60, 4);
    return this;
  }

  /** Straight to `target` at `mph`, a breadcrumb every 30 seconds. */
  to(target: GeoPoint, mph: number): this {
    const from = this.here;
    const steps = Math.max(1, Math.ceil((haversineMiles(from, target) / mph) * 120));
    for (let i = 1; i <= steps; i++) this.push(interpolateGreatCircle(from, target, i / steps), 30, mph, 4);
    return this;
  }

  /** Parked for `minutes`, a breadcrumb a minute; `pump(i)` is what the gauge gains by minute i. */
  park(minutes: number, pump: (minute: number) => number = () => 0): this {
    const before = this.level;
    for (let i = 0; i < minutes; i++) {
      this.level = before + pump(i);
      this.push(this.here, 60, 0, 1);
    }
    return this;
  }
}

/** Feeds a drive one breadcrumb at a time, each through ingest and the worker's cycle, noting the session after each. */
const run = (fleetId: string, vehicleId: string, crumbs: readonly Crumb[]) =>
  runBatched(fleetId, vehicleId, crumbs, 0);

/**
 * Feeds a drive in batches, as a device uploading every few minutes: all breadcrumbs recorded
 * within `minutes` of a batch's first go through ingest together, then one worker cycle.
 */
async function runBatched(fleetId: string, vehicleId: string, crumbs: readonly Crumb[], minutes: number) {
  const sessions: GuidanceSession[] = [];
  let i = 0;
  while (i < crumbs.length) {
    const first = crumbs[i] as Crumb;
    // At least one breadcrumb per batch; `minutes: 0` feeds them one at a time.
    let j = i + 1;
    while (j < crumbs.length && (crumbs[j] as Crumb).at - first.at < minutes * 60_000) j++;
    const batch = crumbs.slice(i, j);
    i = j;
    clock.set((batch.at(-1) as Crumb).at);
    const response = await ingestLocations(
      ingestDeps(infra),
      fleetId,
      batch.map((crumb) => ({
        vehicle_id: vehicleId,
        latitude: crumb.point.latitude,
        longitude: crumb.point.longitude,
        recorded_at: new Date(crumb.at).toISOString(),
        fuel_level_percent: Math.max(0, Math.min(100, crumb.fuel)),
        speed_mph: crumb.mph,
      })),
    );
    expect(response.rejected).toBe(0);
    infra.sent.vehicleUpdates.take();
    await processVehicleUpdate(deps, { fleetId, vehicleId });
    const { session } = await deps.tracking.get(fleetId, vehicleId);
    if (session) sessions.push(session);
  }
  return sessions;
}

/** A truck 20 route miles before the Denton station's point, 38 % in the tank, guided to Denver. */
async function guidedTruck(startMs: number, milesBefore = 20, level = 38.4) {
  const truck = await newTruck();
  const drive = new Drive(denton.milesAlongRoute - milesBefore, startMs, level);
  await run(truck.fleetId, truck.vehicle.id, drive.crumbs.splice(0));
  const started = await startGuidance(deps, truck.principal, truck.fleetId, truck.vehicle.id, {
    destination: DENVER,
    min_arrival_fuel_percent: 15,
  });
  const stop = started.stops[0];
  expect(stop?.stationId).toBe(denton.station.id);
  return { ...truck, drive, started, stop: stop as GuidanceSession['stops'][number] };
}

const S = () => denton.milesAlongRoute;
const station = () => ({ latitude: denton.station.latitude, longitude: denton.station.longitude });

describe('a truck that leaves the interstate for a recommended station 1.4 miles off it', () => {
  it('keeps the stop, arrives at the station, fuels (matched), departs and gets a fresh plan', {
    timeout: 120_000,
  }, async () => {
    const { fleetId, vehicle, drive, started, stop, eventsOf } = await guidedTruck(START_MS);
    // On the interstate to just before the station's point, off at an exit just past it, the
    // surface road to the station, 14 minutes at the pumps (36 → 87 %), and back.
    drive.along(S() - 20, S() - 1).along(S() - 1, S() + 0.4);
    const onInterstate = drive.crumbs.length;
    drive.to(station(), 25);
    const arrivedLevel = drive.levelNow;
    const toStation = drive.crumbs.length;
    drive.park(14, (i) => Math.min(51, Math.max(0, i - 2) * 6));
    const atPumps = drive.crumbs.length;
    drive.to(pointAt(S() + 0.5), 25).along(S() + 0.5, S() + 10);

    const sessions = await run(fleetId, vehicle.id, drive.crumbs);
    const phases = sessions.map((s) => s.phase);
    // Approaching on the interstate, then the stop held on the ramp and the surface road…
    expect(phases.slice(0, onInterstate)).toContain('approaching_stop');
    for (const session of sessions.slice(onInterstate - 1, toStation)) {
      expect(session.stops[0]?.id).toBe(stop.id);
      expect(session.phase).toBe('approaching_stop');
    }
    // …at_stop at the pumps, and a fresh plan after leaving.
    expect(phases.slice(toStation, atPumps)).toContain('at_stop');
    const after = sessions.at(-1) as GuidanceSession;
    expect(after.stops.map((s) => s.stationId)).not.toContain(denton.station.id);
    expect(['no_stop_needed', 'stop_recommended']).toContain(after.phase);
    expect(after.fuel?.percent).toBeGreaterThan(80);

    const order = eventsOf(
      'guidance.stop_approaching',
      'vehicle.stop_arrived',
      'fueling.recorded',
      'fueling.matched',
      'vehicle.stop_departed',
    ).map((e) => e.type);
    expect(order).toEqual([
      'guidance.stop_approaching',
      'vehicle.stop_arrived',
      'fueling.recorded',
      'fueling.matched',
      'vehicle.stop_departed',
    ]);
    const [approaching] = eventsOf('guidance.stop_approaching');
    expect(approaching?.data).toMatchObject({ guidance_id: started.id, stop_id: stop.id });
    const [arrived] = eventsOf('vehicle.stop_arrived');
    expect(arrived?.data).toMatchObject({ guidance_id: started.id, stop_id: stop.id });
    // Judged at the station's own position, 1.4 miles from the route.
    expect(
      haversineMiles(
        { latitude: arrived?.data.latitude as number, longitude: arrived?.data.longitude as number },
        station(),
      ),
    ).toBeLessThanOrEqual(0.25);
    const [recorded] = eventsOf('fueling.recorded');
    const rise = 87 - arrivedLevel;
    const gallons = recorded?.data.gallons as number;
    expect(Math.abs(gallons - (rise / 100) * TANK)).toBeLessThanOrEqual(0.1 * (rise / 100) * TANK);
    expect(eventsOf('fueling.matched')[0]?.data).toMatchObject({
      fueling_id: recorded?.data.fueling_id,
      guidance_id: started.id,
      stop_id: stop.id,
      station: { id: denton.station.id, name: 'Independent I-35 Oklahoma' },
    });
    expect(eventsOf('vehicle.stop_departed')[0]?.data).toMatchObject({
      guidance_id: started.id,
      stop_id: stop.id,
    });
    // The fresh plan after the departure was announced.
    const departedSeq = eventsOf('vehicle.stop_departed')[0]?.sequence as number;
    const update = eventsOf('guidance.updated').find((e) => e.sequence > departedSeq);
    expect(update?.data.change).toBe(after.stops.length ? 'refreshed' : 'cleared');
    expect(update?.data.stop_ids).toEqual(after.stops.map((s) => s.id));
  });

  it('drops the stop for a truck that stays on the interstate past the exit, and replans', {
    timeout: 120_000,
  }, async () => {
    const { fleetId, vehicle, drive, stop, eventsOf } = await guidedTruck(START_MS + 6 * 3_600_000);
    drive.along(S() - 20, S() + 10);
    const sessions = await run(fleetId, vehicle.id, drive.crumbs);
    expect(eventsOf('guidance.stop_approaching')).toHaveLength(1);
    // Gone within two breadcrumbs past the station's point.
    const past = drive.crumbs.findIndex((c) => haversineMiles(c.point, pointAt(S() + 2)) < 0.01);
    for (const session of sessions.slice(past)) expect(session.stops.map((s) => s.id)).not.toContain(stop.id);
    const after = sessions.at(-1) as GuidanceSession;
    expect(after.stops.length).toBeGreaterThan(0);
    expect(eventsOf('guidance.updated').at(-1)?.data).toMatchObject({
      change: 'refreshed',
      stop_ids: after.stops.map((s) => s.id),
    });
    expect(
      eventsOf('vehicle.stop_arrived', 'vehicle.stop_departed', 'fueling.recorded', 'fueling.matched'),
    ).toEqual([]);
  });

  it('records a fill at a station that was not recommended, and matches nothing', {
    timeout: 120_000,
  }, async () => {
    const milesBefore = denton.milesAlongRoute - otherStation.milesAlongRoute + 5;
    const { fleetId, vehicle, drive, started, eventsOf } = await guidedTruck(
      START_MS + 12 * 3_600_000,
      milesBefore,
      45,
    );
    expect(started.stops.map((s) => s.stationId)).not.toContain(otherStation.station.id);
    const other = { latitude: otherStation.station.latitude, longitude: otherStation.station.longitude };
    const O = otherStation.milesAlongRoute;
    drive.along(S() - milesBefore, O + 0.3).to(other, 25);
    drive.park(12, (i) => Math.min(45, Math.max(0, i - 2) * 6));
    drive.to(pointAt(O + 0.5), 25).along(O + 0.5, O + 5);
    await run(fleetId, vehicle.id, drive.crumbs);
    expect(eventsOf('fueling.recorded')).toHaveLength(1);
    expect(eventsOf('fueling.matched', 'vehicle.stop_arrived', 'vehicle.stop_departed')).toEqual([]);
  });

  it('drops the stop for a truck that turns back on the surface road onto the interstate: no arrival, no fueling, a plan from where it is', {
    timeout: 120_000,
  }, async () => {
    const { fleetId, vehicle, drive, eventsOf } = await guidedTruck(START_MS + 18 * 3_600_000);
    const halfway = interpolateGreatCircle(pointAt(S() + 0.4), station(), 0.5);
    drive
      .along(S() - 20, S() + 0.4)
      .to(halfway, 25)
      .to(pointAt(S() + 0.6), 25)
      .along(S() + 0.6, S() + 8);
    const sessions = await run(fleetId, vehicle.id, drive.crumbs);
    expect(
      eventsOf('vehicle.stop_arrived', 'vehicle.stop_departed', 'fueling.recorded', 'fueling.matched'),
    ).toEqual([]);
    // Still needs fuel: planned from where it is, without the station behind it.
    const after = sessions.at(-1) as GuidanceSession;
    expect(after.stops.length).toBeGreaterThan(0);
    expect(after.stops.map((s) => s.stationId)).not.toContain(denton.station.id);
  });

  it('keeps the stop through a GPS jump of ~150 m away from the station on the surface road: arrives and matches', {
    timeout: 120_000,
  }, async () => {
    const { fleetId, vehicle, drive, started, stop, eventsOf } = await guidedTruck(START_MS + 30 * 3_600_000);
    drive.along(S() - 20, S() - 1).along(S() - 1, S() + 0.4);
    const onInterstate = drive.crumbs.length;
    drive.to(station(), 25);
    const toStation = drive.crumbs.length;
    drive.park(14, (i) => Math.min(51, Math.max(0, i - 2) * 6));
    drive.to(pointAt(S() + 0.5), 25).along(S() + 0.5, S() + 6);
    // One breadcrumb on the surface road, halfway, thrown away from the station: ~150 m (0.093 mi)
    // farther from it than the breadcrumb before.
    const k = Math.floor((onInterstate + toStation) / 2);
    const crumb = drive.crumbs[k] as Crumb;
    const d = haversineMiles(crumb.point, station());
    const dBefore = haversineMiles((drive.crumbs[k - 1] as Crumb).point, station());
    const f = (dBefore + 0.093 - d) / d;
    const jumped = {
      latitude: crumb.point.latitude + (crumb.point.latitude - station().latitude) * f,
      longitude: crumb.point.longitude + (crumb.point.longitude - station().longitude) * f,
    };
    expect(haversineMiles(jumped, station()) - dBefore).toBeGreaterThan(0.08);
    drive.crumbs[k] = { ...crumb, point: jumped };

    const sessions = await run(fleetId, vehicle.id, drive.crumbs);
    for (const session of sessions.slice(onInterstate - 1, toStation))
      expect(session.stops[0]?.id).toBe(stop.id);
    expect(
      eventsOf('vehicle.stop_arrived', 'fueling.matched', 'vehicle.stop_departed').map((e) => [
        e.type,
        e.data.stop_id,
      ]),
    ).toEqual([
      ['vehicle.stop_arrived', stop.id],
      ['fueling.matched', stop.id],
      ['vehicle.stop_departed', stop.id],
    ]);
    expect(eventsOf('fueling.matched')[0]?.data).toMatchObject({ guidance_id: started.id });
  });

  it('keeps the stop, arrives, fuels (matched) and departs with batched uploads (a worker cycle every 3–5 minutes)', {
    timeout: 120_000,
  }, async () => {
    for (const [n, minutes] of [
      [0, 3],
      [1, 5],
    ] as const) {
      const { fleetId, vehicle, drive, started, stop, eventsOf } = await guidedTruck(
        START_MS + (36 + 6 * n) * 3_600_000,
      );
      drive
        .along(S() - 20, S() - 1)
        .along(S() - 1, S() + 0.4)
        .to(station(), 25);
      drive.park(14, (i) => Math.min(51, Math.max(0, i - 2) * 6));
      drive.to(pointAt(S() + 0.5), 25).along(S() + 0.5, S() + 10);
      const sessions = await runBatched(fleetId, vehicle.id, drive.crumbs, minutes);
      expect(
        sessions.map((s) => s.phase),
        `${minutes}-minute batches`,
      ).toContain('at_stop');
      expect(
        eventsOf('vehicle.stop_arrived', 'fueling.matched', 'vehicle.stop_departed').map((e) => [
          e.type,
          e.data.stop_id,
        ]),
        `${minutes}-minute batches`,
      ).toEqual([
        ['vehicle.stop_arrived', stop.id],
        ['fueling.matched', stop.id],
        ['vehicle.stop_departed', stop.id],
      ]);
      expect(eventsOf('fueling.matched')[0]?.data).toMatchObject({ guidance_id: started.id });
      const after = sessions.at(-1) as GuidanceSession;
      expect(after.stops.map((s) => s.stationId)).not.toContain(denton.station.id);
      expect(after.fuel?.percent).toBeGreaterThan(80);
    }
  });

  it('arrives and departs without fuelling when the truck dwells at the station and leaves', {
    timeout: 120_000,
  }, async () => {
    const { fleetId, vehicle, drive, stop, eventsOf } = await guidedTruck(START_MS + 24 * 3_600_000);
    drive
      .along(S() - 20, S() + 0.4)
      .to(station(), 25)
      .park(5)
      .to(pointAt(S() + 0.5), 25)
      .along(S() + 0.5, S() + 6);
    const sessions = await run(fleetId, vehicle.id, drive.crumbs);
    expect(sessions.map((s) => s.phase)).toContain('at_stop');
    expect(
      eventsOf('vehicle.stop_arrived', 'vehicle.stop_departed').map((e) => [e.type, e.data.stop_id]),
    ).toEqual([
      ['vehicle.stop_arrived', stop.id],
      ['vehicle.stop_departed', stop.id],
    ]);
    expect(eventsOf('fueling.recorded', 'fueling.matched')).toEqual([]);
    // The plan after the departure starts afresh: another station, since the tank is still low.
    const after = sessions.at(-1) as GuidanceSession;
    expect(after.stops.length).toBeGreaterThan(0);
    expect(after.stops.map((s) => s.stationId)).not.toContain(denton.station.id);
  });
});

describe('a truck that fuels at the stop it was shown after the stop left its guidance', () => {
  it.each([
    ['the session cancelled (DELETE …/guidance)', 100],
    ['the stop skipped', 106],
  ] as const)(
    '%s: arrives, fuels (matched to that session and stop), departs',
    {
      timeout: 120_000,
    },
    async (change, hours) => {
      const { fleetId, vehicle, drive, started, stop, eventsOf } = await guidedTruck(
        START_MS + hours * 3_600_000,
      );
      if (change.startsWith('the session')) await cancelGuidance(deps, fleetId, vehicle.id);
      else await skipGuidanceStop(deps, fleetId, vehicle.id, stop.id, 'driver prefers another');
      const { session } = await deps.tracking.get(fleetId, vehicle.id);
      expect(session?.status === 'active' ? session.stops.map((s) => s.id) : []).not.toContain(stop.id);

      drive.along(S() - 20, S() + 0.4).to(station(), 25);
      drive.park(14, (i) => Math.min(51, Math.max(0, i - 2) * 6));
      drive.to(pointAt(S() + 0.5), 25).along(S() + 0.5, S() + 6);
      await run(fleetId, vehicle.id, drive.crumbs);

      const told = eventsOf(
        'vehicle.stop_arrived',
        'fueling.recorded',
        'fueling.matched',
        'vehicle.stop_departed',
      );
      expect(told.map((e) => e.type)).toEqual([
        'vehicle.stop_arrived',
        'fueling.recorded',
        'fueling.matched',
        'vehicle.stop_departed',
      ]);
      for (const event of told.filter((e) => e.type !== 'fueling.recorded')) {
        expect(event.data).toMatchObject({ guidance_id: started.id, stop_id: stop.id });
      }
    },
  );
});

// Runs last: every event the drives above recorded is its type's webhook as openapi.json publishes it.
describe('the events of these drives', () => {
  it('match the published webhooks: every data member declared and of its type, every required one there', () => {
    expect(announced.length).toBeGreaterThan(0);
    for (const event of announced) {
      const delivered = JSON.parse(eventBody(event));
      expect(webhookEnvelopeProblems(delivered), `${event.type}: ${eventBody(event)}`).toEqual([]);
    }
  });
});
