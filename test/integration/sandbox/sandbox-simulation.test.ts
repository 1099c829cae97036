import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_PRODUCTION_ACCESS } from '#shared/accounts/domain/account.ts';
import type { EventEnvelope } from '#shared/events/domain/envelope.ts';
import { eventRecorderOn } from '#shared/events/wiring/events.ts';
import { fuelingStores } from '#shared/fuelings/wiring/fuelings.ts';
import { guidanceStores } from '#shared/guidance/wiring/guidance.ts';
import { createGuidancePlanningDeps } from '#shared/guidance/wiring/guidance-planning.ts';
import { createIntegrationCounterStore } from '#shared/integration-health/store/integration-counters.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { usagePeriod } from '#shared/plans/domain/plans.ts';
import { simulationResource } from '#shared/sandbox/api/serializers.ts';
import { cityOf, TRUCK_PROFILES } from '#shared/sandbox/domain/profiles.ts';
import type { ScenarioName } from '#shared/sandbox/domain/scenarios.ts';
import { PAUSE_AFTER_IDLE_MS, type Simulation } from '#shared/sandbox/domain/simulation.ts';
import {
  activeSimulation,
  provisionSimulatedTrucks,
  runSimulation,
  type SandboxSimulationDeps,
  tickSimulations,
} from '#shared/sandbox/usecases/sandbox-simulation.ts';
import {
  advanceSandbox,
  resetSandbox,
  sandboxSnapshot,
  scheduleSandboxScenario,
} from '#shared/sandbox/usecases/sandbox-tools.ts';
import { createSandboxDeps } from '#shared/sandbox/wiring/sandbox.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import type { VehicleUpdateMessage } from '#shared/tracking/domain/messages.ts';
import { processVehicleUpdate } from '#shared/tracking/usecases/vehicle-updates.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { tableStores } from '#shared/wiring/table-stores.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '#test/support/infrastructure.ts';

/**
 * The simulator through the real pipeline (DynamoDB Local): its breadcrumbs go through the ingest use
 * case onto the vehicle-updates queue, and the guidance worker's cycle runs for every message after
 * each batch, as the queue would run it. The wall clock stands still; the simulation's runs ahead.
 */
const client = testDocumentClient();
const clock = fixedClock(Date.parse('2026-11-23T12:00:00Z'));
const announced: EventEnvelope[] = [];
let table: string;
let infra: TestInfrastructure;
let deps: SandboxSimulationDeps;

beforeAll(async () => {
  table = await createTestTable(client, 'sandbox-sim');
  infra = testInfrastructure({ tableName: table, clock, stage: 'sandbox' });
  const events = eventRecorderOn(infra.client, table, 'sandbox', clock.now, async (event) => {
    announced.push(event);
  });
  const worker = createGuidancePlanningDeps(infra, { events });
  deps = createSandboxDeps(infra, {
    events,
    // The twins here are made with fresh fleet ids the control plane does not know.
    isSandboxTwin: async () => true,
    // The guidance worker, for every vehicle the batch touched (one cycle covers a vehicle's batch).
    settle: async () => {
      const messages = infra.sent.vehicleUpdates.take();
      const unique = new Map<string, VehicleUpdateMessage>(messages.map((m) => [m.vehicleId, m]));
      for (const message of unique.values()) await processVehicleUpdate(worker, message);
    },
  });
  await stationSources(infra).catalog.current();
});
afterAll(() => deleteTestTable(client, table));

const eventsOf = (fleetId: string, vehicleId: string, type: string) =>
  announced.filter(
    (e) =>
      e.fleet_id === fleetId &&
      e.type === type &&
      (e.data as { vehicle_id?: string }).vehicle_id === vehicleId,
  );

async function twin(): Promise<Simulation> {
  return provisionSimulatedTrucks(deps, newId('fleet'));
}

function withScenario(simulation: Simulation, ref: string, scenario: ScenarioName): Simulation {
  return {
    ...simulation,
    trucks: simulation.trucks.map((t) => (t.externalRef === ref ? { ...t, pendingScenario: scenario } : t)),
  };
}

/** Runs the twin in steps of `step` minutes until `done` holds or `limit` minutes have run. */
async function runUntil(start: Simulation, limit: number, done: (s: Simulation) => boolean, step = 15) {
  let simulation = start;
  for (let minutes = 0; minutes < limit && !done(simulation); minutes += step) {
    simulation = (await runSimulation(deps, simulation, step, 5)).simulation;
  }
  return simulation;
}

describe('sandbox simulation through the real pipeline', () => {
  it('provisions three vehicles once, with tank and mpg', async () => {
    const first = await twin();
    const again = await provisionSimulatedTrucks(deps, first.fleetId);
    expect(again.trucks.map((t) => t.vehicleId)).toEqual(first.trucks.map((t) => t.vehicleId));
    const vehicles = await Promise.all(
      first.trucks.map((t) => deps.vehicles.get(first.fleetId, t.vehicleId)),
    );
    expect(
      vehicles.map((v) => [v?.externalRef, v?.tankSizeGallons !== null, v?.estimatedMpg !== null]),
    ).toEqual([
      ['sim-1', true, true],
      ['sim-2', true, true],
      ['sim-3', true, true],
    ]);
  });

  it('the low reefer gets guidance, fuels at its recommended stop, and the fueling is matched', async () => {
    const start = await twin();
    const reefer = start.trucks[2]?.vehicleId as string;
    const matched = () => eventsOf(start.fleetId, reefer, 'fueling.matched').length > 0;
    await runUntil(start, 8 * 60, matched);
    expect(eventsOf(start.fleetId, reefer, 'guidance.updated').length).toBeGreaterThan(0);
    const [fill] = eventsOf(start.fleetId, reefer, 'fueling.matched');
    expect(fill).toBeDefined();
    const fuelings = await fuelingStores(infra).fuelings.list(start.fleetId, { vehicleId: reefer }, 10);
    expect(fuelings.data.some((f) => f.source === 'detected' && f.guidanceId !== null)).toBe(true);
  }, 120_000);

  it('the tick runs a running twin one minute, pauses an idle one, and a tool call resumes it at the wall clock', async () => {
    const active = await twin();
    const idle = await twin();
    // Nobody has called the idle twin's tools for longer than the pause rule.
    const stale = {
      ...idle,
      lastActivityMs: clock.now() - PAUSE_AFTER_IDLE_MS - 1,
      version: idle.version + 1,
    };
    expect(await deps.simulations.save(stale)).toBe(true);

    await tickSimulations(deps);

    const ticked = (await deps.simulations.get(active.fleetId)) as Simulation;
    expect(ticked.simulatedNowMs).toBe(active.simulatedNowMs + 60_000);
    expect(ticked.lastTickAtMs).toBe(clock.now());
    expect(ticked.trucks.every((t) => t.lastReport?.recordedAtMs === ticked.simulatedNowMs)).toBe(true);
    const paused = (await deps.simulations.get(idle.fleetId)) as Simulation;
    expect(paused.status).toBe('paused');
    expect(paused.simulatedNowMs).toBe(idle.simulatedNowMs);

    await tickSimulations(deps);
    expect(((await deps.simulations.get(idle.fleetId)) as Simulation).simulatedNowMs).toBe(
      idle.simulatedNowMs,
    );

    const resumed = await activeSimulation(deps, idle.fleetId);
    expect(resumed.status).toBe('running');
    expect(resumed.lastActivityMs).toBe(clock.now());
  }, 60_000);

  it('right after a reset every truck is parked at home with its starting fuel; two resets snapshot alike', async () => {
    const start = await twin();
    const { fleetId } = start;
    await scheduleSandboxScenario(deps, fleetId, 'ext:sim-1', 'low_fuel');
    await advanceSandbox(deps, fleetId, 45);
    const snapshot = async () => simulationResource(await sandboxSnapshot(deps, fleetId), clock.now());
    const startMs = clock.now();
    try {
      await resetSandbox(deps, fleetId);
      const first = await snapshot();
      expect(first.vehicles).toHaveLength(3);
      for (const [index, vehicle] of first.vehicles.entries()) {
        const profile = TRUCK_PROFILES[index] as (typeof TRUCK_PROFILES)[number];
        const home = cityOf(profile.homeCityId);
        expect(vehicle).toMatchObject({
          scenario: 'normal',
          pending_scenario: null,
          state: 'parked',
          position: { speed_mph: 0, recorded_at: first.clock.simulated_now },
          fuel: { percent: profile.startFuelPercent },
          guidance_id: null,
          next_stop: null,
        });
        expect(vehicle.position?.latitude).toBeCloseTo(home.latitude, 4);
        expect(vehicle.position?.longitude).toBeCloseTo(home.longitude, 4);
      }

      clock.advance(90_000);
      await resetSandbox(deps, fleetId);
      const second = await snapshot();
      const barTheClock = (view: typeof first) => ({
        ...view,
        clock: null,
        vehicles: view.vehicles.map((v) => ({
          ...v,
          position: v.position && { ...v.position, recorded_at: null },
        })),
      });
      expect(second.clock.simulated_now).not.toBe(first.clock.simulated_now);
      expect(barTheClock(second)).toEqual(barTheClock(first));
    } finally {
      clock.set(startMs);
    }
  }, 120_000);

  it('a tick racing a reset keeps the reset: its trucks and clock are dropped', async () => {
    const start = await twin();
    let resets = 0;
    // The reset lands while the tick's breadcrumbs are in the pipeline, before the tick saves.
    const racing: SandboxSimulationDeps = {
      ...deps,
      settle: async () => {
        await deps.settle();
        if (resets++ === 0) await resetSandbox(deps, start.fleetId);
      },
    };
    const ran = (await runSimulation(racing, start, 1)).simulation;
    const stored = (await deps.simulations.get(start.fleetId)) as Simulation;
    expect(stored.generation).toBe(start.generation + 1);
    expect(stored.simulatedNowMs).toBe(clock.now());
    // Back at the standing start, reported as of the reset.
    expect(stored.trucks.every((t) => t.lastReport?.recordedAtMs === clock.now() && t.speedMph === 0)).toBe(
      true,
    );
    expect(ran).toEqual(stored);
  }, 60_000);

  it('a tick that lost to an advance drops its minute: the clock never goes back', async () => {
    const start = await twin();
    let advances = 0;
    const racing: SandboxSimulationDeps = {
      ...deps,
      settle: async () => {
        await deps.settle();
        if (advances++ === 0) {
          await runSimulation(deps, (await deps.simulations.get(start.fleetId)) as Simulation, 15);
        }
      },
    };
    await runSimulation(racing, start, 1);
    const stored = (await deps.simulations.get(start.fleetId)) as Simulation;
    expect(stored.simulatedNowMs).toBe(start.simulatedNowMs + 15 * 60_000);
    expect(stored.trucks.every((t) => t.lastReport?.recordedAtMs === stored.simulatedNowMs)).toBe(true);
  }, 60_000);

  it('an advance whose time runs short stops after a saved batch and says how far it got', async () => {
    const start = await twin();
    // Time enough for two batches, then none: no wall clock involved.
    let checks = 0;
    const remainingMs = () => (checks++ < 2 ? 60_000 : 0);
    const view = await advanceSandbox(deps, start.fleetId, 60, remainingMs);
    expect(view.requestedMinutes).toBe(60);
    expect(view.advancedMinutes).toBe(30);
    const stored = (await deps.simulations.get(start.fleetId)) as Simulation;
    expect(stored).toEqual(view.simulation);
    expect(stored.simulatedNowMs).toBe(start.simulatedNowMs + 30 * 60_000);
    expect(stored.trucks.every((t) => t.lastReport?.recordedAtMs === stored.simulatedNowMs)).toBe(true);
  }, 60_000);

  it('counts its breadcrumbs in the health counters at the wall clock, not the simulated hours', async () => {
    const start = await twin();
    await runSimulation(deps, start, 180);
    const counters = createIntegrationCounterStore(infra.client, table);
    const wallHour = await counters.hours(start.fleetId, clock.now(), clock.now());
    const simulatedHours = await counters.hours(
      start.fleetId,
      clock.now() + 3_600_000,
      clock.now() + 3 * 3_600_000,
    );
    expect(wallHour.reduce((sum, hour) => sum + hour.breadcrumbs, 0)).toBe(3 * 180);
    expect(simulatedHours).toEqual([]);
  }, 60_000);

  it("bills the re-plans of the simulator's guidance to the simulator's account, not the twin's", async () => {
    const start = await twin();
    const reefer = start.trucks[2]?.vehicleId as string;
    await runUntil(start, 60, () => eventsOf(start.fleetId, reefer, 'guidance.updated').length > 0, 5);
    const { session } = await guidanceStores(infra).tracking.get(start.fleetId, reefer);
    expect(session?.billingAccountId).toBe('sandbox-simulator');

    // The guidance worker's charge for that session's re-plans goes where the session says.
    const { counters } = tableStores(infra);
    const period = usagePeriod(clock.now()).id;
    const simulatorBefore = (await counters.readUsage('sandbox-simulator', period)).station_results ?? 0;
    const worker = createGuidancePlanningDeps(infra);
    await worker.chargeReplannedStations?.(start.fleetId, 2, session?.billingAccountId);
    // The twin is unknown to the control plane here: its own account would be its fleet id.
    expect((await counters.readUsage(start.fleetId, period)).station_results ?? 0).toBe(0);
    expect((await counters.readUsage('sandbox-simulator', period)).station_results).toBe(simulatorBefore + 2);
  }, 60_000);

  it("answers only for a company's sandbox twin, and never adopts a vehicle that is not a simulated truck", async () => {
    // The real wiring: the control plane says which fleet is a twin.
    const tools = createSandboxDeps(infra);
    const twinFleet = newId('fleet');
    const company = newId('company');
    await tableStores(infra).accounts.create({
      id: company,
      type: 'company',
      name: 'Twin Co',
      contactEmail: null,
      timezone: null,
      planName: 'starter',
      liveFleetId: null,
      sandboxFleetId: twinFleet,
      productionAccess: NO_PRODUCTION_ACCESS,
      createdAt: '2026-11-01T00:00:00.000000Z',
    });
    const view = await sandboxSnapshot(tools, twinFleet);
    expect(view.simulation.trucks).toHaveLength(3);
    // The snapshot's newest events, read back as delivered.
    const recorded = await eventRecorderOn(infra.client, table, 'sandbox', clock.now).record(
      twinFleet,
      'vehicle.offline',
      {},
    );
    expect((await sandboxSnapshot(tools, twinFleet)).events[0]).toEqual(recorded);

    // A partner's fleet (not a twin) with its own sim-1: 404, nothing provisioned or adopted.
    const partnerFleet = newId('fleet');
    await createVehicle({ vehicles: tools.vehicles, clock }, partnerFleet, { external_ref: 'sim-1' });
    await expect(sandboxSnapshot(tools, partnerFleet)).rejects.toMatchObject({ code: 'resource_not_found' });
    await expect(resetSandbox(tools, partnerFleet)).rejects.toMatchObject({ code: 'resource_not_found' });
    expect(await tools.simulations.get(partnerFleet)).toBeNull();

    // Even in a twin, an integrator's own vehicle using sim-1 is not taken over.
    const otherTwin = newId('fleet');
    await createVehicle({ vehicles: deps.vehicles, clock }, otherTwin, {
      external_ref: 'sim-1',
      name: 'My truck',
    });
    await expect(provisionSimulatedTrucks(deps, otherTwin)).rejects.toMatchObject({
      code: 'resource_conflict',
    });
  }, 60_000);

  it('offline stops the reports: vehicle.offline, then vehicle.online when it reports again', async () => {
    const start = (await runSimulation(deps, await twin(), 5, 5)).simulation;
    const truck = start.trucks[0]?.vehicleId as string;
    let simulation = (await runSimulation(deps, withScenario(start, 'sim-1', 'offline'), 20, 5)).simulation;
    expect(eventsOf(start.fleetId, truck, 'vehicle.offline')).toHaveLength(1);
    expect(eventsOf(start.fleetId, truck, 'vehicle.online')).toHaveLength(0);
    simulation = (await runSimulation(deps, simulation, 20, 5)).simulation;
    expect(eventsOf(start.fleetId, truck, 'vehicle.online')).toHaveLength(1);
    expect(simulation.trucks[0]?.scenario).toBe('normal');
  }, 60_000);

  it('sensor_noise jumps the readings, through driving and a rest at the destination, but produces no fueling', async () => {
    // The day cab: its legs are short, so it arrives and stands 30 minutes within the run.
    let simulation = withScenario(await twin(), 'sim-2', 'sensor_noise');
    const truck = simulation.trucks[1]?.vehicleId as string;
    const firstDestination = simulation.trucks[1]?.destinationCityId;
    let fills = 0;
    let wasFueling = false;
    for (let minutes = 0; minutes < 6 * 60; minutes += 5) {
      simulation = (await runSimulation(deps, simulation, 5, 5)).simulation;
      const fueling = simulation.trucks[1]?.activity === 'fueling';
      if (fueling && !wasFueling) fills += 1;
      wasFueling = fueling;
    }
    expect(simulation.trucks[1]?.scenario).toBe('sensor_noise');
    expect(simulation.trucks[1]?.destinationCityId).not.toBe(firstDestination);
    const history = await guidanceStores(infra).positions.historySince(
      simulation.fleetId,
      truck,
      0,
      simulation.simulatedNowMs,
    );
    const levels = history.map((fix) => fix.fuelLevelPercent as number);
    const jumps = levels.slice(1).map((level, i) => Math.abs(level - (levels[i] as number)));
    expect(Math.max(...jumps)).toBeGreaterThan(10);
    // Only the fills the truck really made (if guidance sent it to one) are fuelings; the slosh never is.
    expect(eventsOf(simulation.fleetId, truck, 'fueling.recorded')).toHaveLength(fills);
  }, 180_000);
});
