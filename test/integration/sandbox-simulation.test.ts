import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioName } from '../../shared/domain/sandbox/scenarios.ts';
import type { Simulation } from '../../shared/domain/sandbox/simulation.ts';
import type { VehicleUpdateMessage } from '../../shared/domain/telematics/messages.ts';
import { newId } from '../../shared/platform/ids.ts';
import { fixedClock } from '../../shared/platform/time.ts';
import { createEventRecorder, type EventEnvelope } from '../../shared/store/events.ts';
import {
  provisionSimulatedTrucks,
  runSimulation,
  type SandboxSimulationDeps,
} from '../../shared/usecases/sandbox-simulation.ts';
import { processVehicleUpdate } from '../../shared/usecases/vehicle-updates.ts';
import { fuelingStores } from '../../shared/wiring/fuelings.ts';
import { createGuidancePlanningDeps } from '../../shared/wiring/guidance-planning.ts';
import { createSandboxDeps } from '../../shared/wiring/sandbox.ts';
import { stationSources } from '../../shared/wiring/stations.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '../support/dynamodb.ts';
import { type TestInfrastructure, testInfrastructure } from '../support/infrastructure.ts';

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
  const events = createEventRecorder(infra.client, table, 'sandbox', clock.now, async (event) => {
    announced.push(event);
  });
  const worker = createGuidancePlanningDeps(infra, { events });
  deps = createSandboxDeps(infra, {
    events,
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
    simulation = await runSimulation(deps, simulation, step, 5);
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

  it('offline stops the reports: vehicle.offline, then vehicle.online when it reports again', async () => {
    const start = await runSimulation(deps, await twin(), 5, 5);
    const truck = start.trucks[0]?.vehicleId as string;
    let simulation = await runSimulation(deps, withScenario(start, 'sim-1', 'offline'), 20, 5);
    expect(eventsOf(start.fleetId, truck, 'vehicle.offline')).toHaveLength(1);
    expect(eventsOf(start.fleetId, truck, 'vehicle.online')).toHaveLength(0);
    simulation = await runSimulation(deps, simulation, 20, 5);
    expect(eventsOf(start.fleetId, truck, 'vehicle.online')).toHaveLength(1);
    expect(simulation.trucks[0]?.scenario).toBe('normal');
  }, 60_000);

  it('sensor_noise jumps the readings but produces no fueling', async () => {
    const start = await twin();
    const truck = start.trucks[0]?.vehicleId as string;
    const simulation = await runSimulation(deps, withScenario(start, 'sim-1', 'sensor_noise'), 4 * 60, 15);
    expect(simulation.trucks[0]?.scenario).toBe('sensor_noise');
    expect(eventsOf(start.fleetId, truck, 'fueling.recorded')).toHaveLength(0);
  }, 120_000);
});
