import { type GuidanceParts, guidanceStores, offlineSweepDeps } from '#shared/guidance/wiring/guidance.ts';
import { createGuidancePlanningDeps } from '#shared/guidance/wiring/guidance-planning.ts';
import { logger } from '#shared/platform/observability.ts';
import { ingestDeps } from '#shared/tracking/wiring/tracking.ts';
import { type Infrastructure, perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { registered } from '#shared/wiring/message-queues.ts';
import { tableStores, vehicleStore } from '#shared/wiring/table-stores.ts';
import { createSimulationStore } from '../store/sandbox-simulations.ts';
import type { SandboxSimulationDeps } from '../usecases/sandbox-simulation.ts';

/** What a caller may replace: the pipeline's settling (tests run the guidance worker themselves). */
export interface SandboxParts extends Partial<GuidanceParts> {
  settle?: () => Promise<void>;
  /** Tests whose twins the control plane does not know say which fleets are twins. */
  isSandboxTwin?: (fleetId: string) => Promise<boolean>;
}

/**
 * The sandbox simulator: its store, and the real pipeline's use cases (ingest, guidance, the offline
 * judgement) built on the simulation's clock rather than the wall clock.
 */
export function createSandboxDeps(infra: Infrastructure, parts: SandboxParts = {}): SandboxSimulationDeps {
  const planning = createGuidancePlanningDeps(infra, parts.events ? { events: parts.events } : undefined);
  const offline = parts.events
    ? { ...offlineSweepDeps(infra), events: parts.events, fuelings: planning.fuelings }
    : offlineSweepDeps(infra);
  return {
    simulations: createSimulationStore(infra.client, infra.config.tableName),
    vehicles: vehicleStore(infra),
    tracking: guidanceStores(infra).tracking,
    // The breadcrumbs are received at the simulation's time; the health counters count the wall clock's.
    ingest: (now) => ({ ...ingestDeps(infra), now, countersNow: infra.clock.now }),
    guidance: (now) => ({ ...planning, now }),
    offline: (now) => ({ ...offline, now }),
    isSandboxTwin: parts.isSandboxTwin ?? (async (fleetId) => isSandboxTwin(infra, fleetId)),
    now: infra.clock.now,
    settle: parts.settle ?? (infra.config.localStack ? localWorkerIdle : async () => {}),
    onError: (context, error) => logger.warn('Sandbox simulation step failed', { ...context, error }),
  };
}

/** The control plane knows the twins: the account a fleet belongs to names its sandbox fleet. */
async function isSandboxTwin(infra: Infrastructure, fleetId: string): Promise<boolean> {
  const { accounts } = tableStores(infra);
  const accountId = await accounts.accountOfFleet(fleetId);
  return accountId !== null && (await accounts.get(accountId))?.sandboxFleetId === fleetId;
}

/**
 * The local stack's guidance worker has handled every breadcrumb queued so far. (Deployed, the
 * worker consumes SQS on its own; the trucks follow whatever guidance it has written.)
 */
async function localWorkerIdle(): Promise<void> {
  const queue = registered('vehicleUpdates') as { idle?: () => Promise<void> };
  await queue.idle?.();
}

/** The sandbox routes and the tick. */
export const sandboxDeps = /* @__PURE__ */ perInfrastructure((infra) => createSandboxDeps(infra));
