/**
 * What the cost bench (bench/cost.ts) and the soak (bench/soak.ts) share: the local stack started
 * in-process on free ports with its credentials in a temporary folder (a running `npm start` or test
 * suite is left alone), a small HTTP client that times and counts every answer, and a fleet of
 * simulated trucks that drive the embedded network a mile a minute, some of them stopping to fuel.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalStack, startLocalStack } from '#local/stack.ts';
import { computeEmbeddedRoute } from '#shared/geo/embedded-router.ts';
import type { RouteLine } from '#shared/geo/routing-engine.ts';
import type { GeoPoint } from '#shared/kernel/distance.ts';
import { DALLAS, DENVER, PERCENT_PER_MILE, PHILADELPHIA, pointAlong, TRUCK } from './trip.ts';

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
  ms: number;
}

export interface ApiClient {
  request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiAnswer>;
  /** Answers with a 5xx status so far. */
  serverErrors(): number;
}

export interface BenchStack {
  stack: LocalStack;
  api: ApiClient;
  fleetId: string;
  stop(): Promise<void>;
}

export interface BenchStackOptions {
  /** Temporary folder name prefix. */
  label: string;
  /**
   * Handlers log at INFO and write their Powertools metrics (EMF records, which are log lines too),
   * as the deployed prod stage does (lib/stage.ts), so log bytes are what CloudWatch would ingest;
   * the lines themselves are dropped. Default: quiet (WARN and above, no metrics).
   */
  productionLogLevel?: boolean;
}

/** The local stack for a bench: free ports, temporary credentials, nothing printed. */
export async function startBenchStack(options: BenchStackOptions): Promise<BenchStack> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const folder = mkdtempSync(join(tmpdir(), `fleet-fuel-${options.label}-`));
  // The stage servers copy this process's environment when they are forked (in startLocalStack's
  // first step), so the level is set around the start only and later benches are not affected.
  const previous = {
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL,
    POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED,
  };
  if (options.productionLogLevel) {
    process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  }
  let stack: LocalStack;
  try {
    stack = await startLocalStack({
      port: 0,
      sandboxPort: 0,
      credentialsPath: join(folder, 'credentials.json'),
      quiet: !options.productionLogLevel,
      ...(options.productionLogLevel ? { print: () => {} } : {}),
      onUnexpectedExit: (message) => console.error(`${options.label}: ${message}`),
    });
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  } finally {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  const { base_url: baseUrl, keys, fleets } = stack.credentials;
  let serverErrors = 0;
  const api: ApiClient = {
    async request(method, path, body) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${keys.company_live}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const ms = performance.now() - started;
      if (response.status >= 500) serverErrors += 1;
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, ms };
    },
    serverErrors: () => serverErrors,
  };
  return {
    stack,
    api,
    fleetId: fleets.company,
    async stop() {
      await stack.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The prod stage's vehicle-updates queue so far: messages sent, and messages whose handling is over. */
export async function vehicleUpdatesProgress(
  stack: Pick<LocalStack, 'usage'>,
): Promise<{ sent: number; done: number }> {
  const { prod } = await stack.usage();
  const queue = prod.queues.vehicleUpdates;
  if (!queue) throw new Error('the prod stage server reports no vehicle-updates queue usage');
  return { sent: queue.messagesSent, done: queue.messagesDone };
}

/**
 * Resolves once the guidance worker has handled every vehicle-updates message sent so far (true),
 * or when `deadline` (a `performance.now()` time) passes first (false). The worker's stored state
 * is no signal: a quiet cycle stores nothing (commit-policy.ts).
 */
export async function workerCaughtUp(
  stack: Pick<LocalStack, 'usage'>,
  deadline: number,
  pollMs = 20,
): Promise<boolean> {
  const { sent } = await vehicleUpdatesProgress(stack);
  while ((await vehicleUpdatesProgress(stack)).done < sent) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return true;
}

/** Runs `task` over `items` with at most `concurrency` in flight; results in the items' order. */
export async function inPool<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** Creates `count` trucks through POST /v1/vehicles; their ids in order. */
export async function createTrucks(api: ApiClient, count: number, refPrefix: string): Promise<string[]> {
  const indexes = Array.from({ length: count }, (_, index) => index);
  return inPool(indexes, 16, async (index) => {
    const created = await api.request('POST', '/v1/vehicles', {
      external_ref: `${refPrefix}-${String(index).padStart(5, '0')}`,
      tank_size_gallons: TRUCK.tankSizeGallons,
      estimated_mpg: TRUCK.estimatedMpg,
    });
    if (created.status !== 201) {
      throw new Error(`POST /v1/vehicles: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
    }
    return String(created.body.id);
  });
}

export interface Breadcrumb {
  vehicle_id: string;
  latitude: number;
  longitude: number;
  recorded_at: string;
  fuel_level_percent: number;
  speed_mph: number;
}

/** The routes the simulated fleet drives; guided trucks drive the first, towards Denver. */
export interface FleetRoutes {
  toDenver: RouteLine;
  toPhiladelphia: RouteLine;
}

export function fleetOperations(): FleetRoutes {
  return {
    toDenver: computeEmbeddedRoute({ origin: DALLAS, destination: DENVER }),
    toPhiladelphia: computeEmbeddedRoute({ origin: DALLAS, destination: PHILADELPHIA }),
  };
}

export const GUIDANCE_DESTINATION = DENVER;

/** Minutes a dwelling truck stands still (and fills its tank at the middle one). */
const DWELL = { from: 4, until: 8, fuelAt: 6 } as const;

/**
 * One simulated truck: a mile a minute along its route from its own starting mile, fuel draining
 * with the miles. Guided trucks drive Dallas → Denver; of the others, every fifth dwells for a few
 * minutes and fills up to 95 % (a stop and a fueling for detection to see).
 */
export class SimulatedTruck {
  readonly vehicleId: string;
  readonly guided: boolean;
  readonly dwells: boolean;
  private readonly route: RouteLine;
  private readonly startMiles: number;
  private readonly startFuel: number;

  constructor(vehicleId: string, index: number, guided: boolean, routes: FleetRoutes) {
    this.vehicleId = vehicleId;
    this.guided = guided;
    this.dwells = !guided && index % 5 === 1;
    this.route = guided || index % 2 === 0 ? routes.toDenver : routes.toPhiladelphia;
    // Spread along the first 600 miles, so an hour of driving stays on the route.
    this.startMiles = (index * 7) % 600;
    // 40–90 %: enough for guidance to plan, low enough that some plans include a stop.
    this.startFuel = 40 + ((index * 13) % 51);
  }

  /** The breadcrumb of minute `minute` (0-based), recorded at `recordedAtMs`. */
  breadcrumb(minute: number, recordedAtMs: number): Breadcrumb {
    const dwelling = this.dwells && minute >= DWELL.from && minute < DWELL.until;
    // Minutes spent standing before this one: the truck stays at mile DWELL.from while dwelling.
    const stood = this.dwells ? Math.min(Math.max(minute - DWELL.from, 0), DWELL.until - DWELL.from - 1) : 0;
    const drivenMinutes = minute - stood;
    const miles = this.startMiles + drivenMinutes;
    const fuel =
      this.dwells && minute >= DWELL.fuelAt
        ? 95 - (drivenMinutes - DWELL.from) * PERCENT_PER_MILE
        : this.startFuel - drivenMinutes * PERCENT_PER_MILE;
    const point: GeoPoint = pointAlong(this.route, miles);
    return {
      vehicle_id: this.vehicleId,
      ...point,
      recorded_at: new Date(recordedAtMs).toISOString(),
      fuel_level_percent: Math.round(fuel * 10) / 10,
      speed_mph: dwelling ? 0 : 60,
    };
  }
}

/** Nearest-rank percentile of `values` (0–100); NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}
