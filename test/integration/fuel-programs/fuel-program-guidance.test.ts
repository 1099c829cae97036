import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '#shared/events/domain/envelope.ts';
import { eventRecorderOn } from '#shared/events/wiring/events.ts';
import { provisionFleet, updateActingFleetSettings } from '#shared/fleets/usecases/fleets.ts';
import { chainKey } from '#shared/fuel-programs/domain/program.ts';
import { type CorridorStation, corridorStations } from '#shared/geo/corridor.ts';
import { pointAtMiles } from '#shared/geo/route-line.ts';
import type { RouteResult } from '#shared/geo/routing-engine.ts';
import type { GuidanceSession } from '#shared/guidance/domain/session.ts';
import { startGuidance } from '#shared/guidance/usecases/guidance.ts';
import { createGuidancePlanningDeps } from '#shared/guidance/wiring/guidance-planning.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import { ingestLocations } from '#shared/tracking/usecases/ingest.ts';
import { processVehicleUpdate } from '#shared/tracking/usecases/vehicle-updates.ts';
import { ingestDeps } from '#shared/tracking/wiring/tracking.ts';
import { createTrip, startTrip } from '#shared/trips/usecases/trips.ts';
import { tripDeps } from '#shared/trips/wiring/trips.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { tableStores, vehicleStore } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';
import { dispatcherPrincipal, guidancePrincipal } from '#test/support/principals.ts';

/**
 * A fleet's fuel card program changed while a guidance session runs: the next breadcrumb's worker
 * cycle plans under the new program (the worker reads it once per cycle, nothing remembered across
 * cycles). Through the real fleet use case (PATCH /v1/fleet's), ingest, worker cycle and stores
 * against DynamoDB Local, the embedded router and the synthetic catalog, Dallas → Denver.
 */
const client = testDocumentClient();
const START_MS = Date.parse('2026-11-22T14:00:00Z');
const clock = fixedClock(START_MS);
const DALLAS = { latitude: 32.7767, longitude: -96.797 };
const DENVER = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
const START_MILES = 40;
const LEVEL = 38;

let table: string;
let infra: TestInfrastructure;
let deps: ReturnType<typeof createGuidancePlanningDeps>;
let route: RouteResult;
let corridor: CorridorStation[];
const announced: EventEnvelope[] = [];

beforeAll(async () => {
  table = await createTestTable(client, 'fuel-program-guidance');
  infra = testInfrastructure({ tableName: table, clock });
  deps = createGuidancePlanningDeps(infra, {
    events: eventRecorderOn(infra.client, table, 'prod', clock.now, async (event) => {
      announced.push(event);
    }),
  });
  const index = await stationSources(infra).catalog.current();
  route = await deps.router.route({ origin: DALLAS, destination: DENVER });
  corridor = corridorStations(index, route, 2);
});
afterAll(() => deleteTestTable(client, table));

const fleetDeps = () => ({ fleets: tableStores(infra).fleets, stage: 'prod' as const, clock: infra.clock });
const owner = { ownerType: 'company', scopes: ['vehicles:manage', 'keys:manage'] } as const;

/** A truck of a new fleet (no program), START_MILES along the route, guided to Denver. */
async function guidedTruck() {
  const fleet = await provisionFleet(fleetDeps(), newId('partner'), { name: 'Card fleet', timezone: 'UTC' });
  const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleet.id, {
    external_ref: `CARD-${Math.random().toString(36).slice(2, 8)}`,
    tank_size_gallons: 150,
    estimated_mpg: 6.5,
  });
  await feed(fleet.id, vehicle.id, 0);
  const started = await startGuidance(deps, guidancePrincipal(fleet.id), fleet.id, vehicle.id, {
    destination: DENVER,
    min_arrival_fuel_percent: 15,
  });
  return { fleetId: fleet.id, vehicleId: vehicle.id, started };
}

/** The breadcrumb `minute` minutes (and miles) after the start, through ingest and one worker cycle. */
async function feed(fleetId: string, vehicleId: string, minute: number): Promise<void> {
  const atMs = START_MS + minute * 60_000;
  clock.set(atMs);
  const point = pointAtMiles(route, START_MILES + minute);
  const response = await ingestLocations(ingestDeps(infra), fleetId, [
    {
      vehicle_id: vehicleId,
      latitude: point.latitude,
      longitude: point.longitude,
      recorded_at: new Date(atMs).toISOString(),
      fuel_level_percent: LEVEL - minute * 0.1,
      speed_mph: 60,
    },
  ]);
  expect(response.rejected).toBe(0);
  infra.sent.vehicleUpdates.take();
  await processVehicleUpdate(deps, { fleetId, vehicleId });
}

/** The next breadcrumb's cycle, and the session it leaves. */
async function breadcrumb(fleetId: string, vehicleId: string, minute: number): Promise<GuidanceSession> {
  await feed(fleetId, vehicleId, minute);
  const { session } = await deps.tracking.get(fleetId, vehicleId);
  if (!session) throw new Error('no guidance session');
  return session;
}

const setProgram = (fleetId: string, rule: 'required' | 'none', chains: readonly string[]) =>
  updateActingFleetSettings(fleetDeps(), owner, fleetId, {
    fuel_program: {
      rule,
      chains: chains.map((chain) => ({ chain, discount_usd_per_gallon: 0.05 })),
      off_program_penalty_usd_per_gallon: 0,
    },
  });

/** The corridor's chains other than `refused`, as a fleet would list them. */
const chainsBut = (refused: string) => [
  ...new Map(
    corridor
      .filter((c) => chainKey(c.station.chain) !== chainKey(refused))
      .map((c) => [chainKey(c.station.chain), c.station.chain]),
  ).values(),
];

describe('a fuel program changed while a guidance session runs', () => {
  it('is honoured by the next cycle: a stop at a chain the program now refuses gives way to an accepted one', {
    timeout: 60_000,
  }, async () => {
    // Prepare: the plan without a program stops at some chain.
    const { fleetId, vehicleId, started } = await guidedTruck();
    const shown = started.stops[0];
    if (!shown) throw new Error('expected a stop: 38 % does not reach Denver');
    const refusedChain = shown.chain;
    expect(shown.inFuelProgram).toBeNull();

    // Act: the fleet's card is now accepted everywhere but that chain, and required.
    await setProgram(fleetId, 'required', chainsBut(refusedChain));
    const next = await breadcrumb(fleetId, vehicleId, 1);

    // Assess
    expect(next.planStatus).toBe('ok');
    expect(next.stops.length).toBeGreaterThan(0);
    for (const stop of next.stops) {
      expect(chainKey(stop.chain)).not.toBe(chainKey(refusedChain));
      expect(stop.inFuelProgram).toBe(true);
      expect(stop.discount).toBe(0.05);
    }
    expect(next.stops.map((s) => s.stationId)).not.toContain(shown.stationId);
    const refreshed = announced.filter(
      (e) => e.fleet_id === fleetId && e.type === 'guidance.updated' && e.data.change === 'refreshed',
    );
    expect(refreshed.length).toBeGreaterThan(0);

    // Act: the program set back to no rule: the next cycle may plan at that chain again.
    await setProgram(fleetId, 'none', []);
    const after = await breadcrumb(fleetId, vehicleId, 2);

    // Assess
    expect(after.planStatus).toBe('ok');
    expect(after.stops.every((stop) => stop.inFuelProgram === null)).toBe(true);
  });

  it('says no accepted station is in range, without stops, when the program accepts no chain on the route', {
    timeout: 60_000,
  }, async () => {
    // Prepare
    const { fleetId, vehicleId, started } = await guidedTruck();
    expect(started.stops.length).toBeGreaterThan(0);

    // Act: the card is accepted only at a chain with no station anywhere on this route.
    await setProgram(fleetId, 'required', ['Nowhere Fuel Co']);
    const next = await breadcrumb(fleetId, vehicleId, 1);

    // Assess
    expect(next).toMatchObject({
      phase: 'cannot_reach',
      stops: [],
      planStatus: 'no_accepted_station_in_range',
      fuelProgramShortfall: {
        code: 'no_accepted_station_in_range',
        nearestAcceptedStop: null,
        shortfallMiles: null,
        shortfallGallons: null,
      },
    });
    expect(next.planReason).toMatch(/^No station on your fuel card program is within reach/);
  });
});

describe('a trip started after its fuel program changed', () => {
  it('opens guidance without the stops the program now refuses, and plans afresh at the first cycle', {
    timeout: 60_000,
  }, async () => {
    // Prepare: a trip planned without a program stops at some chain.
    const fleet = await provisionFleet(fleetDeps(), newId('partner'), {
      name: 'Trip fleet',
      timezone: 'UTC',
    });
    const { vehicle } = await createVehicle({ vehicles: vehicleStore(infra), clock }, fleet.id, {
      external_ref: `TRIP-${Math.random().toString(36).slice(2, 8)}`,
      tank_size_gallons: 150,
      estimated_mpg: 6.5,
    });
    const trips = tripDeps(infra);
    const trip = await createTrip(trips, dispatcherPrincipal(fleet.id), fleet.id, {
      vehicle_id: vehicle.id,
      origin: { ...DALLAS, name: 'Dallas' },
      destination: DENVER,
      planned_start_at: '2026-11-23T08:00:00Z',
      auto_optimize: true,
      start_fuel_percent: 30,
    });
    const planned = trip.stops.flatMap((stop) => (stop.fuel ? [stop.fuel] : []));
    const refusedChain = planned[0]?.station.chain;
    if (!refusedChain) throw new Error('expected a fuel stop: 30 % does not reach Denver');
    expect(planned[0]?.inFuelProgram).toBeNull();

    // Act: the card is now required and refused at that chain; then the trip starts.
    await setProgram(fleet.id, 'required', chainsBut(refusedChain));
    await startTrip(trips, fleet.id, trip.id);

    // Assess: no refused stop is announced, the rest stand under the program now, and the first
    // cycle replans.
    const { session } = await deps.tracking.get(fleet.id, vehicle.id);
    expect(session?.tripId).toBe(trip.id);
    for (const stop of session?.stops ?? []) {
      expect(chainKey(stop.chain)).not.toBe(chainKey(refusedChain));
      expect(stop.inFuelProgram).toBe(true);
    }
    expect(session?.forceReplan).toBe(true);
  });
});
