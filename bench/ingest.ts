/**
 * Ingest throughput, end to end: the local stack (DynamoDB Local, the prod stage server, its
 * in-process vehicle-updates queue and guidance worker) on free ports with its credentials in a
 * temporary folder, as the e2e setup starts it, so a running `npm start` or test suite is left
 * alone. 50 trucks drive Dallas → Denver, a breadcrumb a minute and about a mile apart; one client
 * posts 500-breadcrumb batches one after another, and the clock stops when the guidance worker has
 * handled every message the posts queued (the vehicle-updates queue's counters: a quiet cycle of an
 * unguided truck stores nothing, so the tracking items are no signal). Half the trucks have an
 * active guidance session, so the worker also replans.
 * Run alone with `npx tsx bench/ingest.ts`; the suite runner imports `benchIngest`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { processCpuMs } from '#local/process-cpu.ts';
import { startLocalStack } from '#local/stack.ts';
import { computeEmbeddedRoute } from '#shared/geo/embedded-router.ts';
import { createDocumentClient } from '#shared/table/dynamo-client.ts';
import { createVehicleTrackingStore } from '#shared/tracking/store/vehicle-tracking.ts';
import { type Breadcrumb, workerCaughtUp } from './fleet-sim.ts';
import { DALLAS, DENVER, PERCENT_PER_MILE, pointAlong, TRUCK } from './trip.ts';

export interface IngestBench {
  /** Breadcrumbs posted ÷ seconds from the first POST until the worker had consumed them all. */
  ingest_breadcrumbs_per_s: number;
  /** The same breadcrumbs ÷ seconds until the last POST answered (the HTTP side alone). */
  ingest_http_breadcrumbs_per_s: number;
  /**
   * CPU ms the prod stage server (HTTP adapter, handlers, queue, guidance worker) and DynamoDB Local
   * (the JVM) spent per 1,000 breadcrumbs over the same window: what bounds the rate, and far steadier
   * than the rate on a shared machine. Absent where /proc is not there (local/process-cpu.ts).
   */
  ingest_stage_cpu_ms_per_1k?: number;
  ingest_dynamodb_cpu_ms_per_1k?: number;
  ingest_breadcrumbs: number;
  ingest_vehicles: number;
  ingest_guided_vehicles: number;
}

const VEHICLES = 50;
const GUIDED_VEHICLES = 25;
const BATCH_SIZE = 500;
const BATCHES = 40;
/** Each truck starts this many road miles further along the route than the previous one. */
const SPACING_MILES = 5;
const START_FUEL_PERCENT = 90;
const DRAIN_TIMEOUT_MS = 120_000;
const MINUTE_MS = 60_000;

export async function benchIngest(): Promise<IngestBench> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const folder = mkdtempSync(join(tmpdir(), 'fleet-fuel-bench-'));
  const stack = await startLocalStack({
    port: 0,
    sandboxPort: 0,
    credentialsPath: join(folder, 'credentials.json'),
    quiet: true,
    // Log bytes per function are the cost benchmark's business; counting them costs the server CPU.
    meterLogs: false,
    onUnexpectedExit: (message) => console.error(`bench: ${message}`),
  }).catch((error: unknown) => {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  });
  const client = createDocumentClient({ region: 'us-east-1', endpoint: stack.dynamoDbEndpoint });
  try {
    const { base_url: baseUrl, keys, fleets } = stack.credentials;
    const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
      const response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.company_live}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text.slice(0, 300)}`);
      return JSON.parse(text) as Record<string, unknown>;
    };
    const tracking = createVehicleTrackingStore(client, stack.tables.prod);
    /** Resolves once the guidance worker has handled every message queued so far. */
    const drained = async () => {
      if (!(await workerCaughtUp(stack, performance.now() + DRAIN_TIMEOUT_MS, 10))) {
        throw new Error(`the guidance worker had not caught up after ${DRAIN_TIMEOUT_MS} ms`);
      }
    };

    const vehicleIds = await Promise.all(
      Array.from({ length: VEHICLES }, async (_, index) => {
        const created = await post('/v1/vehicles', {
          external_ref: `BENCH-${String(index).padStart(3, '0')}`,
          tank_size_gallons: TRUCK.tankSizeGallons,
          estimated_mpg: TRUCK.estimatedMpg,
        });
        return String(created.id);
      }),
    );
    const route = computeEmbeddedRoute({ origin: DALLAS, destination: DENVER });
    const minutesPerVehicle = (BATCHES * BATCH_SIZE) / VEHICLES;
    // Minute 0 is the untimed first breadcrumb; the last is two minutes ago (never in the future).
    const startMs = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS - (minutesPerVehicle + 2) * MINUTE_MS;
    const crumb = (vehicleIndex: number, minute: number): Breadcrumb => {
      const miles = vehicleIndex * SPACING_MILES + minute;
      return {
        vehicle_id: vehicleIds[vehicleIndex] as string,
        ...pointAlong(route, miles),
        recorded_at: new Date(startMs + minute * MINUTE_MS).toISOString(),
        fuel_level_percent: Math.round((START_FUEL_PERCENT - minute * PERCENT_PER_MILE) * 10) / 10,
        speed_mph: 60,
      };
    };

    // Untimed warm-up: one breadcrumb per truck (the worker's first cycle for each), then guidance
    // to Denver on half of them, which routes and caches each route as POST …/guidance does.
    await post('/v1/locations', { locations: vehicleIds.map((_, index) => crumb(index, 0)) });
    await drained();
    await Promise.all(
      vehicleIds.slice(0, GUIDED_VEHICLES).map((id) =>
        post(`/v1/vehicles/${id}/guidance`, {
          destination: DENVER,
          min_arrival_fuel_percent: 20,
        }),
      ),
    );

    // Batch b holds minutes 10b+1 … 10b+10 of every truck, in time order.
    const perBatch = BATCH_SIZE / VEHICLES;
    const batches = Array.from({ length: BATCHES }, (_, batch) =>
      Array.from({ length: BATCH_SIZE }, (_, item) =>
        crumb(item % VEHICLES, batch * perBatch + Math.floor(item / VEHICLES) + 1),
      ),
    );
    const cpu = () => [processCpuMs(stack.pids.prod), processCpuMs(stack.pids.dynamoDb)];
    const cpuBefore = cpu();
    const started = performance.now();
    for (const locations of batches) {
      const answer = await post('/v1/locations', { locations });
      if (answer.accepted !== BATCH_SIZE) {
        throw new Error(`POST /v1/locations accepted ${answer.accepted} of ${BATCH_SIZE}`);
      }
    }
    const posted = performance.now();
    await drained();
    const finished = performance.now();
    const cpuAfter = cpu();

    const guided = await Promise.all(
      vehicleIds.slice(0, GUIDED_VEHICLES).map((id) => tracking.get(fleets.company, id)),
    );
    const replanned = guided.filter(
      (item) =>
        item.session?.status === 'active' &&
        item.session.position?.recordedAtMs === startMs + minutesPerVehicle * MINUTE_MS,
    ).length;
    if (replanned !== GUIDED_VEHICLES) {
      console.warn(
        `bench: only ${replanned} of ${GUIDED_VEHICLES} guidance sessions followed the last breadcrumb`,
      );
    }

    const total = BATCHES * BATCH_SIZE;
    const perThousand = (which: 0 | 1) => {
      const [before, after] = [cpuBefore[which], cpuAfter[which]];
      return before === undefined || after === undefined
        ? undefined
        : Math.round((after - before) / (total / 1000));
    };
    const [stageCpu, dynamoDbCpu] = [perThousand(0), perThousand(1)];
    return {
      ingest_breadcrumbs_per_s: Math.round(total / ((finished - started) / 1000)),
      ingest_http_breadcrumbs_per_s: Math.round(total / ((posted - started) / 1000)),
      ...(stageCpu === undefined ? {} : { ingest_stage_cpu_ms_per_1k: stageCpu }),
      ...(dynamoDbCpu === undefined ? {} : { ingest_dynamodb_cpu_ms_per_1k: dynamoDbCpu }),
      ingest_breadcrumbs: total,
      ingest_vehicles: VEHICLES,
      ingest_guided_vehicles: GUIDED_VEHICLES,
    };
  } finally {
    client.destroy();
    await stack.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchIngest());
