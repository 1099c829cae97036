import type { EventEnvelope } from '#shared/events/domain/envelope.ts';
import type { GuidanceSession } from '#shared/guidance/domain/session.ts';
import type { Stage } from '#shared/platform/config.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { findVehicle, setVehicleStatus, updateVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { profileOf } from '../domain/profiles.ts';
import type { ScenarioName } from '../domain/scenarios.ts';
import {
  initialTrucks,
  type Simulation,
  scenarioAppliesAtMs,
  scheduleScenario,
  touched,
} from '../domain/simulation.ts';
import {
  activeSession,
  activeSimulation,
  provisionSimulatedTrucks,
  runSimulation,
  type SandboxSimulationDeps,
} from './sandbox-simulation.ts';

/** How many of the fleet's newest events the snapshot carries. */
export const SNAPSHOT_EVENTS = 20;

/**
 * The sandbox tools exist only on the sandbox stage (its keys are test keys): on production they
 * answer 404, naming where they are: `sandboxUrl`, the sandbox's base URL as this stage is
 * configured with it (config.ts `sandboxBaseUrl`).
 */
export function assertSandboxStage(stage: Stage, sandboxUrl: string | undefined): void {
  if (stage !== 'sandbox') throw sandboxOnlyError(sandboxUrl);
}

export function sandboxOnlyError(sandboxUrl: string | undefined): ApiError {
  return new ApiError('resource_not_found', 'The sandbox tools exist only on the sandbox stage.', {
    hint: sandboxUrl
      ? `call the sandbox base URL, ${sandboxUrl}, with a test key (svc_test_…)`
      : // A stage deployed without the URL says so rather than print a placeholder.
        'call the sandbox stage’s base URL (this stage is not configured with it) with a test key (svc_test_…)',
  });
}

/** The sandbox tools act on a company's sandbox twin only; any other fleet has no simulation. */
export async function assertSandboxTwin(
  deps: Pick<SandboxSimulationDeps, 'isSandboxTwin'>,
  fleetId: string,
): Promise<void> {
  if (await deps.isSandboxTwin(fleetId)) return;
  throw new ApiError(
    'resource_not_found',
    `Fleet ${fleetId} has no simulation: it is not a company's sandbox twin.`,
    {
      hint: "the simulated trucks live in each company's sandbox twin: call with the company's test key (or a partner key acting on that twin)",
    },
  );
}

/** Everything the snapshot shows, read at one moment. */
export interface SimulationView {
  simulation: Simulation;
  sessions: (GuidanceSession | null)[];
  events: EventEnvelope[];
}

async function viewOf(deps: SandboxSimulationDeps, simulation: Simulation): Promise<SimulationView> {
  const [sessions, events] = await Promise.all([
    Promise.all(
      simulation.trucks.map(async (t) =>
        activeSession(await deps.tracking.get(simulation.fleetId, t.vehicleId)),
      ),
    ),
    deps.simulations.recentEvents(simulation.fleetId, SNAPSHOT_EVENTS),
  ]);
  return { simulation, sessions, events };
}

/** GET /v1/sandbox/simulation. */
export async function sandboxSnapshot(deps: SandboxSimulationDeps, fleetId: string): Promise<SimulationView> {
  await assertSandboxTwin(deps, fleetId);
  return viewOf(deps, await activeSimulation(deps, fleetId));
}

/** The snapshot an advance reached, and how far it got of what was asked. */
export interface AdvanceView extends SimulationView {
  requestedMinutes: number;
  advancedMinutes: number;
}

/**
 * POST /v1/sandbox/advance: runs `minutes` simulated minutes now, through the real pipeline, saving
 * after every batch, and answers the snapshot it reached. It stops early when the request's time
 * (`remainingMs`) runs short: the client calls again for the rest.
 */
export async function advanceSandbox(
  deps: SandboxSimulationDeps,
  fleetId: string,
  minutes: number,
  remainingMs?: () => number,
): Promise<AdvanceView> {
  await assertSandboxTwin(deps, fleetId);
  const simulation = await activeSimulation(deps, fleetId);
  const run = await runSimulation(deps, simulation, minutes, undefined, remainingMs);
  return {
    ...(await viewOf(deps, run.simulation)),
    requestedMinutes: run.requestedMinutes,
    advancedMinutes: run.advancedMinutes,
  };
}

/** POST /v1/sandbox/vehicles/{id}/scenario: scheduled for the truck's next simulated minute. */
export async function scheduleSandboxScenario(
  deps: SandboxSimulationDeps,
  fleetId: string,
  ref: string,
  scenario: ScenarioName,
) {
  await assertSandboxTwin(deps, fleetId);
  const vehicle = await findVehicle(deps, fleetId, ref);
  for (let attempt = 0; attempt < 5; attempt++) {
    const simulation = await activeSimulation(deps, fleetId);
    if (!simulation.trucks.some((t) => t.vehicleId === vehicle.id)) {
      throw new ApiError('resource_not_found', `Vehicle ${vehicle.id} is not one of the simulated trucks.`, {
        hint: 'scenarios apply to the three simulated trucks (external_ref sim-1, sim-2, sim-3); list them with GET /v1/sandbox/simulation',
      });
    }
    const next = {
      ...scheduleScenario(touched(simulation, deps.now()), vehicle.id, scenario),
      version: simulation.version + 1,
    };
    if (await deps.simulations.save(next)) {
      return {
        vehicleId: vehicle.id,
        scenario,
        appliesAtMs: scenarioAppliesAtMs(next, deps.now()),
      };
    }
  }
  throw new ApiError('resource_conflict', 'The simulation changed under this request five times; retry.');
}

/**
 * What a reset clears from the twin's partition: positions and history, guidance (tracking, routes,
 * recommendations, archived sessions), trips and fuelings, and the savings they made. Vehicles,
 * webhook endpoints, deliveries and events stay (the event sequence never goes back).
 */
const RESET_PREFIXES = [
  'VEHPOS#',
  'VEHHIST#',
  'VEHTRACK#',
  'VEHSEEN#',
  'VEHROUTE#',
  'RECSTOP#',
  'GUIDANCE#',
  'TRIP#',
  'ACTIVETRIP#',
  'FUELING#',
  'FUELREF#',
  'FUELVEH#',
  'SAVDAY#',
] as const;

/**
 * POST /v1/sandbox/reset: the three trucks back to their initial profiles (vehicle fields and
 * status too), their scenarios back to normal, the clock back to the wall clock, and the twin's
 * guidance, trips, fuelings and history cleared.
 */
export async function resetSandbox(deps: SandboxSimulationDeps, fleetId: string) {
  await assertSandboxTwin(deps, fleetId);
  const provisioned = await provisionSimulatedTrucks(deps, fleetId);
  const vehicleDeps = { vehicles: deps.vehicles, clock: { now: deps.now } };
  await Promise.all(
    provisioned.trucks.map(async (truck) => {
      const profile = profileOf(truck.profileId);
      await updateVehicle(vehicleDeps, fleetId, truck.vehicleId, {
        name: truck.name,
        tank_size_gallons: profile.tankSizeGallons,
        estimated_mpg: profile.mpg,
      });
      await setVehicleStatus(vehicleDeps, fleetId, truck.vehicleId, 'active');
    }),
  );
  const deletedItems = await deps.simulations.deleteFleetItems(fleetId, RESET_PREFIXES);
  const nowMs = deps.now();
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = (await deps.simulations.get(fleetId)) ?? provisioned;
    const fresh: Simulation = {
      ...current,
      status: 'running',
      simulatedNowMs: nowMs,
      lastActivityMs: nowMs,
      trucks: initialTrucks(
        fleetId,
        current.trucks.map((t) => ({ vehicleId: t.vehicleId, name: t.name })),
        nowMs,
      ),
      generation: current.generation + 1,
      version: current.version + 1,
    };
    if (await deps.simulations.save(fresh)) {
      return {
        fleetId,
        vehicleIds: fresh.trucks.map((t) => t.vehicleId),
        deletedItems,
        completedAtMs: nowMs,
      };
    }
  }
  throw new ApiError('resource_conflict', 'The simulation changed under this request five times; retry.');
}
