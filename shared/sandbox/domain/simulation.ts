import { TRUCK_PROFILES } from './profiles.ts';
import type { ScenarioName } from './scenarios.ts';
import { initialTruck, type SimTruck } from './truck.ts';

/** The scheduled tick's period (EventBridge Scheduler rate(1 minute); one simulated minute each). */
export const TICK_INTERVAL_SECONDS = 60;

/**
 * A twin nobody has called the sandbox tools of for this long pauses: its trucks stand still and
 * the tick only reads it, so thousands of forgotten twins cost a query, not a pipeline each. The
 * next call to a sandbox tool resumes it (its clock jumps to the wall clock, see resumeAt).
 */
export const PAUSE_AFTER_IDLE_MS = 24 * 3_600_000;

/** The most simulated minutes one POST /v1/sandbox/advance runs. */
export const MAX_ADVANCE_MINUTES = 1440;

/** External refs of the three trucks, in profile order. */
export const SIM_EXTERNAL_REFS = ['sim-1', 'sim-2', 'sim-3'] as const;

export type SimulationStatus = 'running' | 'paused';

/** One sandbox twin's simulation: its own clock and its three trucks. */
export interface Simulation {
  fleetId: string;
  status: SimulationStatus;
  /**
   * The simulation's clock. It starts at the wall clock, moves a minute per tick and N minutes per
   * advance, so after an advance it runs ahead of the wall clock (a test clock); breadcrumbs are
   * recorded (and received) at this time.
   */
  simulatedNowMs: number;
  /** Wall-clock time of the last scheduled tick; null before the first. */
  lastTickAtMs: number | null;
  /** Wall-clock time of the last call to a sandbox tool (the pause rule). */
  lastActivityMs: number;
  trucks: SimTruck[];
  /**
   * Bumped by every reset. A tick or advance that started from another generation was running
   * trucks the reset threw away: its result is dropped rather than written over the reset.
   */
  generation: number;
  /** Optimistic concurrency: the tick, advance, scenario and reset all read-modify-write the item. */
  version: number;
}

/**
 * The three trucks as provisioned (and after a reset), parked at home as of `startMs`, seeded by
 * the fleet id: every twin differs, each is reproducible.
 */
export function initialTrucks(
  fleetId: string,
  vehicles: readonly { vehicleId: string; name: string }[],
  startMs: number,
): SimTruck[] {
  return TRUCK_PROFILES.map((profile, index) => {
    const vehicle = vehicles[index];
    if (!vehicle) throw new RangeError('one vehicle per profile');
    return initialTruck(
      profile,
      { vehicleId: vehicle.vehicleId, externalRef: SIM_EXTERNAL_REFS[index] as string, name: vehicle.name },
      seedOf(`${fleetId}:${index}`),
      startMs,
    );
  });
}

/** Schedules a scenario for the truck's next minute. */
export function scheduleScenario(
  simulation: Simulation,
  vehicleId: string,
  scenario: ScenarioName,
): Simulation {
  return {
    ...simulation,
    trucks: simulation.trucks.map((t) =>
      t.vehicleId === vehicleId ? { ...t, pendingScenario: scenario } : t,
    ),
  };
}

/**
 * A call to a sandbox tool: the twin is active again. A paused one resumes with its clock at the
 * wall clock (not the hours it missed: its trucks stood still, and replaying them would send hours
 * of breadcrumbs at once); a clock already ahead of the wall clock (an advance) stays ahead.
 */
export function touched(simulation: Simulation, nowMs: number): Simulation {
  return {
    ...simulation,
    status: 'running',
    simulatedNowMs:
      simulation.status === 'paused' ? Math.max(simulation.simulatedNowMs, nowMs) : simulation.simulatedNowMs,
    lastActivityMs: nowMs,
  };
}

export function isIdle(simulation: Simulation, nowMs: number): boolean {
  return nowMs - simulation.lastActivityMs > PAUSE_AFTER_IDLE_MS;
}

/** The wall-clock time of the next scheduled tick, given the last (null while paused). */
export function nextTickAtMs(simulation: Simulation): number | null {
  if (simulation.status === 'paused' || simulation.lastTickAtMs === null) return null;
  return simulation.lastTickAtMs + TICK_INTERVAL_SECONDS * 1000;
}

/**
 * When a scenario scheduled now applies: the next tick, or a tick interval from now before the
 * first tick; never in the past (a tick that is late has not run yet, so it applies now at the earliest).
 */
export function scenarioAppliesAtMs(simulation: Simulation, nowMs: number): number {
  return Math.max(nextTickAtMs(simulation) ?? nowMs + TICK_INTERVAL_SECONDS * 1000, nowMs);
}

/** FNV-1a over the text: a stable 32-bit seed. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
