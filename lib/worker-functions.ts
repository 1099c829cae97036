/**
 * The functions that are not routes: their bundle name, handler module, timeout and role group, named
 * once for the bundler (scripts/bundle-functions.ts), the stack (lib/webhooks.ts, lib/ingest.ts,
 * lib/jobs.ts) and the local stack (local/workers.ts). Plain data, so none of them loads aws-cdk-lib to
 * read it.
 */
export interface WorkerFunction {
  /** The bundle's folder under dist/functions and the function's log group name. */
  name: string;
  /** Relative to the repository root; the module exports `handler`. */
  handler: string;
  timeoutSeconds: number;
  description: string;
  /** The execution role it runs under (lib/execution-roles.ts): one group per worker, as their access differs. */
  role: WorkerRoleGroup;
  /** Scheduled jobs only: the period of their `rate(…)` schedule (lib/jobs.ts, local/workers.ts). */
  rateMinutes?: number;
  /** Absent: the house default (lib/function-defaults.ts). */
  memoryMb?: number;
}

/**
 * Role groups of the functions below. Routes take theirs from the route table (`RoleGroup`); these are
 * not routes, so their groups are named here (`webhook-dispatcher` is in both until the route table
 * drops it).
 */
export type WorkerRoleGroup =
  | 'webhook-dispatcher'
  | 'guidance-worker'
  | 'offline-sweep'
  | 'sandbox-tick'
  | 'health-snapshot'
  | 'price-feed-import'
  | 'price-freshness';

/**
 * The SQS consumer that POSTs webhook deliveries. Each delivery is one HTTP call with a timeout of a
 * few seconds; 60 s covers a batch of 10 even if every receiver is slow and the records run one after
 * another, and the deliveries queue's visibility timeout is derived from it.
 */
export const WEBHOOK_DISPATCHER = {
  name: 'webhookDispatcher',
  handler: 'functions/workers/webhook-dispatcher.ts',
  timeoutSeconds: 60,
  description: 'Webhook deliveries: POST each event to its endpoint, schedule retries',
  role: 'webhook-dispatcher',
} as const satisfies WorkerFunction;

/**
 * The vehicle-updates consumer: recomputes one vehicle's guidance per record from stored state (route,
 * stations, fuel plan) and records the events it detects. A record is a few table reads and writes
 * plus one route; 30 s covers a batch of 10 with a slow routing call, and the vehicle-updates queue's
 * visibility timeout is derived from it.
 */
export const GUIDANCE_WORKER = {
  name: 'guidanceWorker',
  handler: 'functions/workers/guidance-worker.ts',
  timeoutSeconds: 30,
  description: 'Vehicle updates: recompute guidance, detect arrivals, fuelings and low fuel',
  role: 'guidance-worker',
} as const satisfies WorkerFunction;

/**
 * Runs every minute (lib/jobs.ts; locally local/recurring-job.ts): marks vehicles that stopped
 * reporting as offline. It should finish before the next run is due, so its timeout is the period.
 */
export const OFFLINE_SWEEP = {
  name: 'offlineSweep',
  handler: 'functions/jobs/offline-sweep.ts',
  timeoutSeconds: 60,
  description: 'Every minute: mark vehicles that stopped reporting as offline',
  role: 'offline-sweep',
  rateMinutes: 1,
} as const satisfies WorkerFunction;

/**
 * Sandbox stage only (lib/sandbox.ts; locally the sandbox stage server): one simulated minute of every
 * running sandbox twin, its breadcrumbs through the ingest use case. Its timeout is the period.
 */
export const SANDBOX_TICK = {
  name: 'sandboxTick',
  handler: 'functions/jobs/sandbox-tick.ts',
  timeoutSeconds: 60,
  description: 'Sandbox, every minute: move every simulated truck one simulated minute',
  role: 'sandbox-tick',
  rateMinutes: 1,
} as const satisfies WorkerFunction;

/**
 * Runs once a day, near the end of the UTC day (lib/jobs.ts; locally more often, local/workers.ts):
 * snapshots each active fleet's integration health for GET /v1/integration/health/history. A fleet's
 * scorecard is a few small reads, so 5 minutes covers thousands of fleets.
 */
export const HEALTH_SNAPSHOT = {
  name: 'healthSnapshot',
  handler: 'functions/jobs/health-snapshot.ts',
  timeoutSeconds: 300,
  description: 'Daily: snapshot each active fleet’s integration health scorecard',
  role: 'health-snapshot',
  rateMinutes: 1440,
} as const satisfies WorkerFunction;

/**
 * Production only (lib/price-feed.ts): EventBridge invokes it for each price file dropped into the
 * stage's price feed bucket; it validates the file and publishes (or dry-runs) the station catalog.
 * A 50 MB file is parsed in memory and tens of thousands of stations written in batches of 25, so it
 * gets more memory and a longer timeout than the other jobs.
 */
export const PRICE_FEED_IMPORT = {
  name: 'priceFeedImport',
  handler: 'functions/jobs/price-feed-import.ts',
  // Lambda's longest: stations are written 25 to a BatchWriteItem, one batch after another, so a
  // file at the 50 MB cap (~250,000 rows) takes minutes; a real truck-stop catalog (~10,000) seconds.
  timeoutSeconds: 900,
  memoryMb: 1024,
  description: 'Price feed: validate a dropped price file and publish (or dry-run) the station catalog',
  role: 'price-feed-import',
} as const satisfies WorkerFunction;

/**
 * Production only, every 15 minutes (lib/price-feed.ts): the age of the newest station price as a
 * metric, which the stale-price alarm watches. One read of the catalog pointer.
 */
export const PRICE_FRESHNESS = {
  name: 'priceFreshness',
  handler: 'functions/jobs/price-freshness.ts',
  timeoutSeconds: 60,
  description: 'Every 15 minutes: report the age of the newest station price',
  role: 'price-freshness',
  rateMinutes: 15,
} as const satisfies WorkerFunction;

export const workerFunctions: readonly WorkerFunction[] = [
  WEBHOOK_DISPATCHER,
  GUIDANCE_WORKER,
  OFFLINE_SWEEP,
  SANDBOX_TICK,
  HEALTH_SNAPSHOT,
  PRICE_FEED_IMPORT,
  PRICE_FRESHNESS,
];

/** The workers production runs and the sandbox does not (and the reverse), for the stack and its tests. */
export const productionOnlyWorkers: readonly WorkerFunction[] = [PRICE_FEED_IMPORT, PRICE_FRESHNESS];
export const sandboxOnlyWorkers: readonly WorkerFunction[] = [SANDBOX_TICK];
