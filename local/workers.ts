import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import {
  GUIDANCE_WORKER,
  HEALTH_SNAPSHOT,
  OFFLINE_SWEEP,
  PRICE_FRESHNESS,
  SANDBOX_TICK,
  WEBHOOK_DISPATCHER,
  type WorkerFunction,
} from '#lib/worker-functions.ts';
import { registerLocalPipeline } from '#shared/wiring/message-queues.ts';
import type { LocalFunction } from './function-loader.ts';
import { createInProcessQueue, type InProcessQueue } from './in-process-queue.ts';
import { createInProcessScheduler, type InProcessScheduler } from './in-process-scheduler.ts';
import { createLambdaContext } from './lambda-context.ts';
import { type RecurringJob, startRecurringJob } from './recurring-job.ts';

/** Any Lambda handler module's export; the loader is the stage server's, shared with the routes. */
type ModuleHandler = (event: never, context: Context) => unknown;
type SqsLambdaHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | undefined>;
type JobHandler = (event: Record<string, never>, context: Context) => Promise<unknown>;

/** Overrides the offline sweep's period in ms (tests run it every few ms); `0` turns it off. */
export const LOCAL_SWEEP_INTERVAL_ENV = 'LOCAL_SWEEP_INTERVAL_MS';

/** Overrides the sandbox tick's period in ms on the sandbox stage server (default 60 000); `0` turns it off. */
export const LOCAL_SANDBOX_TICK_INTERVAL_ENV = 'LOCAL_SANDBOX_TICK_INTERVAL_MS';
/**
 * Overrides the health snapshot job's period in ms; `0` turns it off. Deployed it runs daily; locally
 * it runs every {@link LOCAL_HEALTH_SNAPSHOT_DEFAULT_MS} by default, so a session sees today's snapshot.
 */
export const LOCAL_HEALTH_SNAPSHOT_INTERVAL_ENV = 'LOCAL_HEALTH_SNAPSHOT_INTERVAL_MS';
export const LOCAL_HEALTH_SNAPSHOT_DEFAULT_MS = 15 * 60_000;
/**
 * Overrides the price freshness job's period in ms on the production stage server (default: the
 * deployed 15 minutes); `0` turns it off. Locally it only logs the age: metrics are off.
 */
export const LOCAL_PRICE_FRESHNESS_INTERVAL_ENV = 'LOCAL_PRICE_FRESHNESS_INTERVAL_MS';

export interface LocalWorkersOptions {
  /** Names the local queues, e.g. `fleet-fuel-prod-deliveries`, `fleet-fuel-prod-vehicle-updates`. */
  stage: string;
  region?: string;
  /** Imports a function's module once and hands back its `handler` (stage-server.ts's loader). */
  loadHandler: (fn: LocalFunction) => Promise<ModuleHandler>;
  /** Faults and dead-lettered messages; they are never silent. */
  log: (line: string) => void;
  /** Default 1 s, for both queues (see createInProcessQueue). */
  visibilityTimeoutMs?: number;
  /**
   * The offline sweep's period in ms; `0` turns it off. Default: `LOCAL_SWEEP_INTERVAL_MS` from `env`,
   * else the deployed schedule's rate (one minute).
   */
  sweepIntervalMs?: number;
  /** The health snapshot job's period in ms; `0` turns it off. Default: the env override, else 15 minutes. */
  healthSnapshotIntervalMs?: number;
  /**
   * The price freshness job's period in ms, on the production stage server only; `0` turns it off.
   * Default: `LOCAL_PRICE_FRESHNESS_INTERVAL_MS` from `env`, else the deployed rate (15 minutes).
   */
  priceFreshnessIntervalMs?: number;
  /** Where `LOCAL_SWEEP_INTERVAL_MS` and `LOCAL_SANDBOX_TICK_INTERVAL_MS` are read. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /**
   * The sandbox tick's period in ms, on the sandbox stage server only; `0` turns it off. Default:
   * `LOCAL_SANDBOX_TICK_INTERVAL_MS` from `env`, else the deployed rate (one minute).
   */
  sandboxTickIntervalMs?: number;
}

export interface LocalWorkers {
  /** The deliveries queue, consumed by the webhook dispatcher. */
  queue: InProcessQueue<unknown>;
  scheduler: InProcessScheduler<unknown>;
  /** The vehicle-updates queue, consumed by the guidance worker. */
  vehicleUpdates: InProcessQueue<unknown>;
  /** The offline sweep's timer; undefined when turned off. */
  offlineSweep: RecurringJob | undefined;
  /** The sandbox tick's timer (sandbox stage server only); undefined elsewhere or when turned off. */
  sandboxTick: RecurringJob | undefined;
  /** The health snapshot job's timer; undefined when turned off. */
  healthSnapshot: RecurringJob | undefined;
  /** The price freshness job's timer (production stage server only); undefined elsewhere or when turned off. */
  priceFreshness: RecurringJob | undefined;
  /** Imports every worker module now, as the routes are warmed; one line for each that is not there yet. */
  warm(): Promise<void>;
  stop(): void;
}

/** What breaks while a worker's module is missing, for the one line warm() logs. */
const workerModules = [
  { fn: WEBHOOK_DISPATCHER, label: 'webhook dispatcher', breaks: 'webhook deliveries fail' },
  { fn: GUIDANCE_WORKER, label: 'guidance worker', breaks: 'vehicle updates fail' },
  { fn: OFFLINE_SWEEP, label: 'offline sweep', breaks: 'offline sweeps fail' },
  { fn: SANDBOX_TICK, label: 'sandbox tick', breaks: 'sandbox trucks stand still' },
  { fn: HEALTH_SNAPSHOT, label: 'health snapshot', breaks: 'health snapshots fail' },
  { fn: PRICE_FRESHNESS, label: 'price freshness', breaks: 'price freshness runs fail' },
] as const;

/**
 * The local stack's queues, scheduler and jobs in one stage server process, standing in for the
 * deployed SQS queues, event source mappings and EventBridge Scheduler:
 * - the deliveries queue (with its in-memory DLQ) and the retry scheduler, with the webhook dispatcher
 *   subscribed;
 * - the vehicle-updates queue (its own in-memory DLQ), with the guidance worker subscribed;
 * - the offline sweep, run every minute like its `rate(1 minute)` schedule;
 * - the health snapshot job, daily when deployed, every 15 minutes here (today's snapshot, replaced);
 * - the price freshness job on the production server, every 15 minutes as deployed.
 * The queues and scheduler are registered for shared/wiring/message-queues.ts
 * (`LOCAL_PIPELINE=1`). Handler modules are imported on first use, so the server starts without them;
 * until one exists, its batches fail (their messages end in the DLQ) or its runs log a failure.
 *
 * @example
 * const workers = startLocalWorkers({ stage: 'prod', loadHandler, log: console.error });
 * await workers.warm();
 */
export function startLocalWorkers(options: LocalWorkersOptions): LocalWorkers {
  const region = options.region ?? 'us-east-1';
  const queueOptions = (name: string) => ({
    name: `fleet-fuel-${options.stage}-${name}`,
    region,
    log: options.log,
    ...(options.visibilityTimeoutMs === undefined
      ? {}
      : { visibilityTimeoutMs: options.visibilityTimeoutMs }),
  });
  const queue = createInProcessQueue<unknown>(queueOptions('deliveries'));
  const vehicleUpdates = createInProcessQueue<unknown>(queueOptions('vehicle-updates'));
  const scheduler = createInProcessScheduler<unknown>({ queue, log: options.log });
  registerLocalPipeline({ queue, scheduler, deadLetterQueue: queue.deadLetterQueue, vehicleUpdates });

  const contextFor = (fn: WorkerFunction) => createLambdaContext(fn.name, fn.timeoutSeconds * 1000, region);
  // The loader is typed for any handler; each worker module's contract is known here.
  const load = async <H>(fn: WorkerFunction) => (await options.loadHandler(fn)) as unknown as H;
  // As the event source mapping would: each batch goes to the worker with a fresh context.
  const consume = (from: InProcessQueue<unknown>, fn: WorkerFunction) =>
    from.subscribe(async (event) => (await load<SqsLambdaHandler>(fn))(event, contextFor(fn)));
  consume(queue, WEBHOOK_DISPATCHER);
  consume(vehicleUpdates, GUIDANCE_WORKER);

  const sweepIntervalMs = resolveInterval(
    options,
    options.sweepIntervalMs,
    LOCAL_SWEEP_INTERVAL_ENV,
    OFFLINE_SWEEP,
    'the offline sweep',
  );
  const offlineSweep =
    sweepIntervalMs === 0
      ? undefined
      : startRecurringJob({
          name: 'offline sweep',
          intervalMs: sweepIntervalMs,
          // The schedule has no input of ours, and the sweep ignores its event.
          run: async () => (await load<JobHandler>(OFFLINE_SWEEP))({}, contextFor(OFFLINE_SWEEP)),
          log: options.log,
        });

  // The simulator runs only where its twins live: the sandbox stage's server.
  const isSandbox = options.stage === 'sandbox';
  const tickIntervalMs = isSandbox
    ? resolveInterval(
        options,
        options.sandboxTickIntervalMs,
        LOCAL_SANDBOX_TICK_INTERVAL_ENV,
        SANDBOX_TICK,
        'the sandbox tick',
      )
    : 0;
  const sandboxTick =
    tickIntervalMs === 0
      ? undefined
      : startRecurringJob({
          name: 'sandbox tick',
          intervalMs: tickIntervalMs,
          // The twin's trucks report within seconds of the start, not a minute later.
          firstRunAfterMs: 3_000,
          run: async () => (await load<JobHandler>(SANDBOX_TICK))({}, contextFor(SANDBOX_TICK)),
          log: options.log,
        });

  const snapshotIntervalMs = resolveSnapshotInterval(options);
  const healthSnapshot =
    snapshotIntervalMs === 0
      ? undefined
      : startRecurringJob({
          name: 'health snapshot',
          intervalMs: snapshotIntervalMs,
          run: async () => (await load<JobHandler>(HEALTH_SNAPSHOT))({}, contextFor(HEALTH_SNAPSHOT)),
          log: options.log,
        });

  // Production only, as deployed (lib/price-feed.ts): the sandbox serves the synthetic catalog by design.
  const freshnessIntervalMs = isSandbox
    ? 0
    : resolveInterval(
        options,
        options.priceFreshnessIntervalMs,
        LOCAL_PRICE_FRESHNESS_INTERVAL_ENV,
        PRICE_FRESHNESS,
        'the price freshness job',
      );
  const priceFreshness =
    freshnessIntervalMs === 0
      ? undefined
      : startRecurringJob({
          name: 'price freshness',
          intervalMs: freshnessIntervalMs,
          run: async () => (await load<JobHandler>(PRICE_FRESHNESS))({}, contextFor(PRICE_FRESHNESS)),
          log: options.log,
        });
  // The sandbox server ticks the simulator, the production server watches price freshness.
  const otherStagesJob: WorkerFunction = isSandbox ? PRICE_FRESHNESS : SANDBOX_TICK;

  return {
    queue,
    scheduler,
    vehicleUpdates,
    offlineSweep,
    sandboxTick,
    healthSnapshot,
    priceFreshness,
    async warm() {
      for (const { fn, label, breaks } of workerModules.filter((m) => m.fn !== otherStagesJob)) {
        try {
          await options.loadHandler(fn);
        } catch (error) {
          const { code, message } = error as NodeJS.ErrnoException;
          options.log(
            code === 'ERR_MODULE_NOT_FOUND' && message.includes(fn.handler)
              ? `${label} ${fn.handler} not found; ${breaks} until it exists`
              : `${label} ${fn.handler} failed to load: ${message}`,
          );
        }
      }
    },
    stop() {
      offlineSweep?.stop();
      sandboxTick?.stop();
      healthSnapshot?.stop();
      priceFreshness?.stop();
      scheduler.stop();
      queue.stop();
      vehicleUpdates.stop();
    },
  };
}

/**
 * The option, else the environment variable, else the deployed rate. A value that is not a
 * non-negative whole number is a typo, not a reason to stop the server: it is said and ignored.
 */
function resolveInterval(
  options: LocalWorkersOptions,
  option: number | undefined,
  variable: string,
  job: { rateMinutes: number },
  label: string,
): number {
  const deployedRate = job.rateMinutes * 60_000;
  if (option !== undefined) return option;
  const configured = (options.env ?? process.env)[variable];
  if (configured === undefined || configured === '') return deployedRate;
  const parsed = Number(configured);
  if (Number.isInteger(parsed) && parsed >= 0) return parsed;
  options.log(
    `${variable}=${configured} is not a whole number of ms; ${label} runs every ${deployedRate} ms`,
  );
  return deployedRate;
}

/** The option, else `LOCAL_HEALTH_SNAPSHOT_INTERVAL_MS`, else 15 minutes; a typo is said and ignored. */
function resolveSnapshotInterval(options: LocalWorkersOptions): number {
  if (options.healthSnapshotIntervalMs !== undefined) return options.healthSnapshotIntervalMs;
  const configured = (options.env ?? process.env)[LOCAL_HEALTH_SNAPSHOT_INTERVAL_ENV];
  if (configured === undefined || configured === '') return LOCAL_HEALTH_SNAPSHOT_DEFAULT_MS;
  const parsed = Number(configured);
  if (Number.isInteger(parsed) && parsed >= 0) return parsed;
  options.log(
    `${LOCAL_HEALTH_SNAPSHOT_INTERVAL_ENV}=${configured} is not a whole number of ms; health snapshots run every ${LOCAL_HEALTH_SNAPSHOT_DEFAULT_MS} ms`,
  );
  return LOCAL_HEALTH_SNAPSHOT_DEFAULT_MS;
}
