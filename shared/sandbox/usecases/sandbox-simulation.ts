import type { GuidanceSession } from '#shared/guidance/domain/session.ts';
import { type StartGuidanceDeps, startGuidance } from '#shared/guidance/usecases/guidance.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import { ApiError } from '#shared/platform/errors.ts';
import type { VehicleTrackingStore } from '#shared/tracking/store/vehicle-tracking.ts';
import { type IngestDeps, ingestLocations } from '#shared/tracking/usecases/ingest.ts';
import { markOfflineIfSilent, type OfflineSweepDeps } from '#shared/tracking/usecases/offline-sweep.ts';
import type { VehicleStore } from '#shared/vehicles/store/vehicles.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { cityOf, TRUCK_PROFILES } from '../domain/profiles.ts';
import { initialTrucks, isIdle, SIM_EXTERNAL_REFS, type Simulation, touched } from '../domain/simulation.ts';
import { type SimBreadcrumb, type SimTruck, type StopAhead, stepTruck } from '../domain/truck.ts';
import type { SimulationStore } from '../store/sandbox-simulations.ts';

/** A pipeline dependency built on a given clock: the simulation's, which may run ahead of the wall clock. */
type AtClock<T> = (now: () => number) => T;

export interface SandboxSimulationDeps {
  simulations: SimulationStore;
  vehicles: VehicleStore;
  tracking: Pick<VehicleTrackingStore, 'get'>;
  /** POST /v1/locations' use case, receiving at the simulation's time. */
  ingest: AtClock<IngestDeps>;
  /** POST …/guidance's use case, as the twin's dispatcher starts sessions. */
  guidance: AtClock<StartGuidanceDeps>;
  /** The offline sweep's judgement, for the twin's own trucks on its own clock. */
  offline: AtClock<OfflineSweepDeps>;
  /**
   * Whether the fleet is a company's sandbox twin (the control plane's account names it): only a
   * twin has a simulation, so the sandbox tools refuse any other fleet a partner key may act on.
   */
  isSandboxTwin: (fleetId: string) => Promise<boolean>;
  /** The wall clock. */
  now: () => number;
  /**
   * Called after each batch of breadcrumbs is queued, before the trucks read their guidance again:
   * the local stack waits for its guidance worker to drain, tests run the worker; deployed, the
   * worker consumes the queue on its own and the trucks follow the guidance it has written so far.
   */
  settle: () => Promise<void>;
  /** Told about a truck whose guidance could not be started (it is retried on the next batch). */
  onError?: (context: Record<string, unknown>, error: unknown) => void;
}

/**
 * Breadcrumbs of this many simulated minutes go to ingest in one batch (one worker cycle per truck):
 * an advance of a day is then 96 batches, not 1,440. The trucks re-read their guidance between batches.
 */
export const ADVANCE_BATCH_MINUTES = 15;

/** The dispatcher the simulation acts as. Its station results count to an account of its own, not the twin's. */
const SIMULATOR_PRINCIPAL: Principal = {
  keyId: 'sandbox-simulator',
  keyName: 'Sandbox simulator',
  ownerType: 'company',
  accountId: 'sandbox-simulator',
  partnerId: null,
  ownFleetId: null,
  mode: 'test',
  scopes: ['guidance:manage'],
  planName: 'sandbox-simulator',
  keyCreatedAt: '2026-11-01T00:00:00.000000Z',
};

/**
 * The twin's three simulated trucks: the vehicles (external_ref `sim-1..3`, tank and mpg set) and
 * their simulation. Idempotent: vehicles found by their external_ref are reused, an existing
 * simulation is returned as it is. The local demo seed calls it for the company's sandbox twin; the
 * operator API calls it when it creates a company.
 */
export async function provisionSimulatedTrucks(
  deps: Pick<SandboxSimulationDeps, 'simulations' | 'vehicles' | 'now'>,
  fleetId: string,
): Promise<Simulation> {
  const existing = await deps.simulations.get(fleetId);
  if (existing) return existing;
  const vehicles = await simVehicles(deps, fleetId);
  const nowMs = deps.now();
  const simulation: Simulation = {
    fleetId,
    status: 'running',
    simulatedNowMs: nowMs,
    lastTickAtMs: null,
    lastActivityMs: nowMs,
    trucks: initialTrucks(fleetId, vehicles, nowMs),
    generation: 0,
    version: 1,
  };
  if (await deps.simulations.create(simulation)) return simulation;
  return (await deps.simulations.get(fleetId)) as Simulation;
}

async function simVehicles(deps: Pick<SandboxSimulationDeps, 'vehicles' | 'now'>, fleetId: string) {
  return Promise.all(
    TRUCK_PROFILES.map(async (profile, index) => {
      const externalRef = SIM_EXTERNAL_REFS[index] as string;
      const name = `${profile.title} (${externalRef})`;
      const id = await deps.vehicles.idForExternalRef(fleetId, externalRef);
      if (id) {
        const existing = await deps.vehicles.get(fleetId, id);
        // Only a truck this function made is adopted: an integrator's own vehicle that happens to
        // use the ref keeps its data, and the simulation is not started over it.
        if (existing?.name !== name) {
          throw new ApiError(
            'resource_conflict',
            `Vehicle ${id} uses external_ref ${externalRef}, which the sandbox simulator keeps for its simulated trucks.`,
            {
              hint: `give vehicle ${id} another external_ref (PATCH /v1/vehicles/${id}), then call the sandbox tool again`,
            },
          );
        }
        return { vehicleId: id, name };
      }
      const { vehicle } = await createVehicle(
        { vehicles: deps.vehicles, clock: { now: deps.now } },
        fleetId,
        {
          external_ref: externalRef,
          name,
          tank_size_gallons: profile.tankSizeGallons,
          estimated_mpg: profile.mpg,
        },
      );
      return { vehicleId: vehicle.id, name };
    }),
  );
}

/**
 * Time a run keeps in hand when it starts another batch: a batch (ingest, the pipeline settling,
 * guidance for the trucks, the checkpoint) takes a few seconds at most; the caller must still answer.
 */
export const BATCH_RESERVE_MS = 4_000;

/** How far a run got: the simulation as saved after its last batch. */
export interface SimulationRun {
  simulation: Simulation;
  requestedMinutes: number;
  /** Fewer than requested when the time ran short, or a reset or a run further ahead won. */
  advancedMinutes: number;
}

/**
 * Runs `minutes` simulated minutes of the twin through the real pipeline: each minute every truck
 * moves and (unless silent) reports a breadcrumb; every {@link ADVANCE_BATCH_MINUTES} the batch goes
 * through POST /v1/locations' use case at the simulation's time, the pipeline settles, silent trucks
 * are judged offline on the simulation's clock, and trucks heading somewhere new get a guidance
 * session. Each batch is saved (merging scenarios scheduled meanwhile), so a run cut short keeps
 * what it did; it stops before a batch when `remainingMs()` is under {@link BATCH_RESERVE_MS}, and
 * when its save was dropped (a reset or a run further ahead won).
 */
export async function runSimulation(
  deps: SandboxSimulationDeps,
  start: Simulation,
  minutes: number,
  batchMinutes = ADVANCE_BATCH_MINUTES,
  remainingMs: () => number = () => Number.POSITIVE_INFINITY,
): Promise<SimulationRun> {
  let simulation = start;
  let advancedMinutes = 0;
  while (advancedMinutes < minutes && remainingMs() >= BATCH_RESERVE_MS) {
    const batch = Math.min(batchMinutes, minutes - advancedMinutes);
    const saved = await save(deps, await runBatch(deps, simulation, batch), simulation);
    simulation = saved.simulation;
    if (!saved.kept) break;
    advancedMinutes += batch;
  }
  return { simulation, requestedMinutes: minutes, advancedMinutes };
}

async function runBatch(
  deps: SandboxSimulationDeps,
  start: Simulation,
  minutes: number,
): Promise<Simulation> {
  const { fleetId } = start;
  const stops = await Promise.all(start.trucks.map((truck) => stopAheadOf(deps, fleetId, truck.vehicleId)));
  let trucks = start.trucks;
  let nowMs = start.simulatedNowMs;
  const breadcrumbs: { truck: SimTruck; crumb: SimBreadcrumb }[] = [];
  for (let minute = 0; minute < minutes; minute++) {
    nowMs += 60_000;
    trucks = trucks.map((truck, index) => {
      const stepped = stepTruck(truck, nowMs, stops[index] ?? null);
      if (stepped.breadcrumb) breadcrumbs.push({ truck: stepped.truck, crumb: stepped.breadcrumb });
      return stepped.truck;
    });
  }
  const clock = () => nowMs;
  if (breadcrumbs.length > 0) {
    await ingestLocations(
      deps.ingest(clock),
      fleetId,
      breadcrumbs.map(({ truck, crumb }) => ({
        vehicle_id: truck.vehicleId,
        latitude: crumb.latitude,
        longitude: crumb.longitude,
        recorded_at: formatTimestamp(crumb.recordedAtMs),
        heading_degrees: crumb.headingDegrees,
        speed_mph: crumb.speedMph,
        ...(crumb.fuelLevelPercent === null ? {} : { fuel_level_percent: crumb.fuelLevelPercent }),
      })),
    );
  }
  await deps.settle();
  const silent = trucks.filter((truck) => truck.silentMinutesLeft > 0);
  for (const truck of silent)
    await markOfflineIfSilent(deps.offline(clock), { fleetId, vehicleId: truck.vehicleId });
  trucks = await Promise.all(trucks.map((truck) => withGuidance(deps, fleetId, truck, clock)));
  return { ...start, simulatedNowMs: nowMs, trucks };
}

/** As a dispatcher would: a truck off to a new destination gets a guidance session for it. */
async function withGuidance(
  deps: SandboxSimulationDeps,
  fleetId: string,
  truck: SimTruck,
  clock: () => number,
): Promise<SimTruck> {
  if (truck.guidanceForCityId === truck.destinationCityId || truck.lastReport === null) return truck;
  if (truck.silentMinutesLeft > 0) return truck;
  const city = cityOf(truck.destinationCityId);
  try {
    await startGuidance(deps.guidance(clock), SIMULATOR_PRINCIPAL, fleetId, truck.vehicleId, {
      destination: { latitude: city.latitude, longitude: city.longitude, name: city.name },
    });
    return { ...truck, guidanceForCityId: truck.destinationCityId };
  } catch (error) {
    deps.onError?.({ fleetId, vehicleId: truck.vehicleId }, error);
    return truck;
  }
}

/** The active session's first stop: where guidance sends the truck next. */
async function stopAheadOf(
  deps: Pick<SandboxSimulationDeps, 'tracking'>,
  fleetId: string,
  vehicleId: string,
): Promise<StopAhead | null> {
  const stop = activeSession(await deps.tracking.get(fleetId, vehicleId))?.stops[0];
  return stop
    ? { stationId: stop.stationId, name: stop.name, latitude: stop.latitude, longitude: stop.longitude }
    : null;
}

export function activeSession(tracking: { session: GuidanceSession | null }): GuidanceSession | null {
  return tracking.session?.status === 'active' ? tracking.session : null;
}

/** A save's outcome: what is stored now, and whether it is this run's result or someone else's. */
export interface SavedSimulation {
  simulation: Simulation;
  /** False when the run's result was dropped (a reset, or a run further ahead, won). */
  kept: boolean;
}

/**
 * Writes the simulation over the version it started from. Someone else wrote meanwhile: a scenario
 * scheduled or a tool call that resumed it keeps its scenario, status and activity, the trucks'
 * movement is ours; but a reset (another generation) or a run that took the clock further (an
 * advance a tick lost to) wins, and our result is dropped: the clock never goes back and a reset is
 * never undone.
 */
async function save(
  deps: Pick<SandboxSimulationDeps, 'simulations'>,
  simulation: Simulation,
  /** What the change started from: a scenario scheduled since is theirs to keep. */
  base: Simulation = simulation,
): Promise<SavedSimulation> {
  let next = { ...simulation, version: simulation.version + 1 };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await deps.simulations.save(next)) return { simulation: next, kept: true };
    const current = await deps.simulations.get(simulation.fleetId);
    if (!current) return { simulation: next, kept: false };
    if (current.generation !== base.generation || current.simulatedNowMs > next.simulatedNowMs) {
      return { simulation: current, kept: false };
    }
    next = {
      ...next,
      status: current.status,
      lastActivityMs: current.lastActivityMs,
      trucks: next.trucks.map((truck) => {
        const theirs = current.trucks.find((t) => t.vehicleId === truck.vehicleId)?.pendingScenario ?? null;
        const before = base.trucks.find((t) => t.vehicleId === truck.vehicleId)?.pendingScenario ?? null;
        return theirs === before ? truck : { ...truck, pendingScenario: theirs };
      }),
      version: current.version + 1,
    };
  }
  throw new Error(`simulation of ${simulation.fleetId}: changed under 5 saves in a row`);
}

/**
 * The scheduled tick: one simulated minute for every running twin; twins idle past the pause rule
 * pause instead (read, not run). A twin whose clock fell behind the wall clock (missed ticks) jumps
 * to it rather than replaying the gap. One twin's failure never holds back the others.
 */
export async function tickSimulations(
  deps: SandboxSimulationDeps,
): Promise<{ ticked: number; paused: number; failed: number }> {
  const nowMs = deps.now();
  const result = { ticked: 0, paused: 0, failed: 0 };
  const work: Promise<void>[] = [];
  for await (const simulation of deps.simulations.list()) {
    if (simulation.status === 'paused') continue;
    work.push(
      (async () => {
        try {
          if (isIdle(simulation, nowMs)) {
            await save(deps, { ...simulation, status: 'paused' });
            result.paused += 1;
            return;
          }
          const behind = simulation.simulatedNowMs < nowMs - 5 * 60_000;
          const start = {
            ...simulation,
            lastTickAtMs: nowMs,
            simulatedNowMs: behind ? nowMs - 60_000 : simulation.simulatedNowMs,
          };
          await runSimulation(deps, start, 1);
          result.ticked += 1;
        } catch (error) {
          result.failed += 1;
          deps.onError?.({ fleetId: simulation.fleetId }, error);
        }
      })(),
    );
  }
  await Promise.all(work);
  return result;
}

/** A sandbox tool call: the twin's simulation (provisioned on first use), marked active. */
export async function activeSimulation(
  deps: Pick<SandboxSimulationDeps, 'simulations' | 'vehicles' | 'now'>,
  fleetId: string,
): Promise<Simulation> {
  const simulation = await provisionSimulatedTrucks(deps, fleetId);
  const nowMs = deps.now();
  // Only a status change or a stale activity mark is worth a write; the page polls every few seconds.
  if (simulation.status === 'running' && nowMs - simulation.lastActivityMs < 3_600_000) return simulation;
  return (await save(deps, { ...touched(simulation, nowMs), version: simulation.version })).simulation;
}
