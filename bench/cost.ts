/**
 * `cost_usd_per_vehicle_month` at a one-minute cadence, from counted operations (bench/cost-model.ts
 * holds the prices). DynamoDB units come from `benchWriteUnits()`'s figures, handed in by the suite
 * runner; everything else is counted on the local stack (local/usage.ts) while 500 trucks, each with
 * an active guidance session, report a breadcrumb a minute as a telematics partner sends them: one
 * POST /v1/locations of 500 items a minute, one breadcrumb per truck. A second phase sends the same
 * trucks' next minute as one POST per breadcrumb, for the batch-size comparison.
 *
 * Lambda durations are measured locally on this machine: an estimate of Lambda's at 512 MB arm64.
 * Run alone with `npx tsx bench/cost.ts` (it then runs the write-unit bench first).
 */
import { pathToFileURL } from 'node:url';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { DynamoDBClient, paginateScan } from '@aws-sdk/client-dynamodb';
import { GUIDANCE_WORKER, HEALTH_SNAPSHOT } from '#lib/worker-functions.ts';
import { LOCAL_CREDENTIALS } from '#local/dynamodb-local.ts';
import { type StageUsage, usageSince } from '#local/usage.ts';
import { createDocumentClient } from '#shared/table/dynamo-client.ts';
import {
  type BreadcrumbOperations,
  type CostBreakdown,
  costPerVehicleMonth,
  gbSeconds,
  mixedFleetCost,
} from './cost-model.ts';
import {
  type ApiClient,
  createTrucks,
  fleetOperations,
  GUIDANCE_DESTINATION,
  inPool,
  SimulatedTruck,
  startBenchStack,
  workerCaughtUp,
} from './fleet-sim.ts';
import type { WriteUnitsBench } from './write-units.ts';

export interface CostBench extends CostBreakdown {
  /** The same month when every breadcrumb is its own POST (no batching). */
  cost_usd_per_vehicle_month_one_per_request: number;
  cost_dynamodb_stored_bytes_per_breadcrumb: number;
  cost_sqs_requests_per_breadcrumb: number;
  cost_lambda_invocations_per_breadcrumb: number;
  cost_lambda_gb_seconds_per_breadcrumb: number;
  cost_api_requests_per_breadcrumb: number;
  cost_log_bytes_per_breadcrumb: number;
  /** Measured locally (an estimate of Lambda's): mean billed ms per invocation. */
  cost_ingest_ms_per_request: number;
  cost_guidance_worker_ms_per_invocation: number;
  /** The one-POST-per-breadcrumb phase's Lambda GB-s and log bytes per breadcrumb. */
  cost_lambda_gb_seconds_per_breadcrumb_one_per_request: number;
  cost_log_bytes_per_breadcrumb_one_per_request: number;
  /**
   * The same truck without a guidance session: DynamoDB units of the unguided write-unit scenario,
   * everything else as measured with every truck guided (an upper bound: an unguided cycle is shorter).
   */
  cost_usd_per_vehicle_month_unguided?: number;
  /**
   * A fleet with {@link GUIDED_SHARE} of its trucks guided (the soak's mix), per truck: what a fleet
   * pays per truck-month, from the two figures above.
   */
  cost_usd_per_vehicle_month_fleet_10pct_guided?: number;
}

/** The share of a fleet's trucks under active guidance in the mixed-fleet figure (and the soak). */
const GUIDED_SHARE = 0.1;

const TRUCKS = 500;
/** Untimed minutes after guidance starts (the worker's first cycles replan), then timed ones. */
const WARM_UP_MINUTES = 3;
const TIMED_MINUTES = 6;
const MINUTE_MS = 60_000;
const DRAIN_TIMEOUT_MS = 180_000;
/** FUNCTION_DEFAULTS.memorySize in lib/function-defaults.ts (no route overrides it). */
const DEPLOYED_MEMORY_MB = 512;

/**
 * Lambda writes three lines of its own per invocation to the function's log group: START, END and
 * REPORT (with X-Ray active, REPORT carries the trace too). Their size, from their published shapes.
 */
const LAMBDA_PLATFORM_LOG_BYTES = (() => {
  const requestId = '8f5a3c2e-1b4d-4e6f-9a7b-0c1d2e3f4a5b';
  return Buffer.byteLength(
    `START RequestId: ${requestId} Version: $LATEST\n` +
      `END RequestId: ${requestId}\n` +
      `REPORT RequestId: ${requestId}\tDuration: 12.34 ms\tBilled Duration: 13 ms\tMemory Size: 512 MB\tMax Memory Used: 98 MB\t\n` +
      'XRAY TraceId: 1-6743a1b2-0123456789abcdef01234567\tSegmentId: 0123456789abcdef\tSampled: true\t\n',
  );
})();

/** API Gateway's access log line per request (lib/api.ts's format, typical values). */
const ACCESS_LOG_BYTES = Buffer.byteLength(
  `${JSON.stringify({
    requestId: 'AbCdEfGhIjKlMnO=',
    ip: '203.0.113.17',
    requestTime: '24/Nov/2026:03:00:00 +0000',
    routeKey: 'POST /v1/locations',
    path: '/v1/locations',
    status: '200',
    protocol: 'HTTP/1.1',
    responseLength: '2345',
    responseLatency: '85',
    integrationLatency: '83',
    integrationError: '-',
  })}\n`,
);

type MeasuredWriteUnits = Pick<
  WriteUnitsBench,
  | 'dynamodb_write_units_per_breadcrumb'
  | 'dynamodb_read_units_per_breadcrumb'
  | 'dynamodb_write_units_per_breadcrumb_unguided'
  | 'dynamodb_read_units_per_breadcrumb_unguided'
>;

export async function benchCost(writeUnits: Partial<MeasuredWriteUnits>): Promise<Partial<CostBench>> {
  const { dynamodb_write_units_per_breadcrumb: writes, dynamodb_read_units_per_breadcrumb: reads } =
    writeUnits;
  if (writes === undefined || reads === undefined) {
    console.warn('bench: no DynamoDB unit figures (the write-unit bench did not run); cost skipped');
    return {};
  }
  const bench = await startBenchStack({ label: 'bench-cost', productionLogLevel: true });
  const { stack, api } = bench;
  const documents = createDocumentClient({ region: 'us-east-1', endpoint: stack.dynamoDbEndpoint });
  const low = new DynamoDBClient({
    region: 'us-east-1',
    endpoint: stack.dynamoDbEndpoint,
    credentials: LOCAL_CREDENTIALS,
  });
  try {
    const routes = fleetOperations();
    const ids = await createTrucks(api, TRUCKS, 'COST');
    const trucks = ids.map((id, index) => new SimulatedTruck(id, index, true, routes));
    const totalMinutes = WARM_UP_MINUTES + TIMED_MINUTES + 1;
    // Minute 0 is `totalMinutes + 2` minutes ago: every breadcrumb is in the past when posted.
    const startMs = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS - (totalMinutes + 2) * MINUTE_MS;
    const at = (minute: number) => startMs + minute * MINUTE_MS;
    const drained = async (minute: number) => {
      if (!(await workerCaughtUp(stack, performance.now() + DRAIN_TIMEOUT_MS))) {
        throw new Error(`cost bench: minute ${minute} not consumed in time`);
      }
    };
    const postMinute = async (minute: number) => {
      const answer = await postLocations(
        api,
        trucks.map((truck) => truck.breadcrumb(minute, at(minute))),
      );
      if (answer !== TRUCKS) throw new Error(`cost bench: minute ${minute}: ${answer} of ${TRUCKS} accepted`);
      await drained(minute);
    };

    await postMinute(0);
    await inPool(trucks, 8, async (truck) => {
      const started = await api.request('POST', `/v1/vehicles/${truck.vehicleId}/guidance`, {
        destination: GUIDANCE_DESTINATION,
        min_arrival_fuel_percent: 20,
      });
      if (started.status >= 300) throw new Error(`cost bench: guidance: ${started.status}`);
    });
    for (let minute = 1; minute < WARM_UP_MINUTES; minute++) await postMinute(minute);

    // Batched: one POST of 500 breadcrumbs (one per truck) a minute.
    const before = await snapshot(stack.usage, low, stack.tables.prod);
    for (let minute = WARM_UP_MINUTES; minute < WARM_UP_MINUTES + TIMED_MINUTES; minute++) {
      await postMinute(minute);
    }
    const after = await snapshot(stack.usage, low, stack.tables.prod);
    const batched = operationsPerBreadcrumb(before, after, TRUCKS * TIMED_MINUTES, writes, reads);

    // One POST per breadcrumb, for the same trucks' next minute; one at a time, so no invocation's
    // duration includes waiting for a sibling's CPU (each Lambda has its own).
    const single = WARM_UP_MINUTES + TIMED_MINUTES;
    await inPool(trucks, 1, async (truck) => {
      const accepted = await postLocations(api, [truck.breadcrumb(single, at(single))]);
      if (accepted !== 1) throw new Error('cost bench: a single breadcrumb was rejected');
    });
    await drained(single);
    const afterSingle = await snapshot(stack.usage, low, stack.tables.prod);
    const unbatched = operationsPerBreadcrumb(after, afterSingle, TRUCKS, writes, reads);

    const round = (value: number, digits: number) => Number(value.toPrecision(digits));
    const { functions } = usageSince(before.usage, after.usage);
    const meanMs = (name: string) => {
      const usage = functions[name];
      return usage && usage.invocations > 0
        ? Math.round((usage.billedDurationMs / usage.invocations) * 10) / 10
        : 0;
    };
    return {
      ...costPerVehicleMonth(batched),
      cost_usd_per_vehicle_month_one_per_request: costPerVehicleMonth(unbatched).cost_usd_per_vehicle_month,
      ...(writeUnits.dynamodb_write_units_per_breadcrumb_unguided === undefined ||
      writeUnits.dynamodb_read_units_per_breadcrumb_unguided === undefined
        ? {}
        : mixedFleetCosts(
            costPerVehicleMonth(batched).cost_usd_per_vehicle_month,
            costPerVehicleMonth({
              ...batched,
              dynamodbWriteUnits: writeUnits.dynamodb_write_units_per_breadcrumb_unguided,
              dynamodbReadUnits: writeUnits.dynamodb_read_units_per_breadcrumb_unguided,
            }).cost_usd_per_vehicle_month,
          )),
      cost_dynamodb_stored_bytes_per_breadcrumb: Math.round(batched.dynamodbStoredBytes),
      cost_sqs_requests_per_breadcrumb: round(batched.sqsRequests, 3),
      cost_lambda_invocations_per_breadcrumb: round(batched.lambdaInvocations, 3),
      cost_lambda_gb_seconds_per_breadcrumb: round(batched.lambdaGbSeconds, 3),
      cost_api_requests_per_breadcrumb: round(batched.apiGatewayRequests, 3),
      cost_log_bytes_per_breadcrumb: Math.round(batched.logBytes),
      cost_ingest_ms_per_request: meanMs('ingestLocations'),
      cost_guidance_worker_ms_per_invocation: meanMs(GUIDANCE_WORKER.name),
      cost_lambda_gb_seconds_per_breadcrumb_one_per_request: round(unbatched.lambdaGbSeconds, 3),
      cost_log_bytes_per_breadcrumb_one_per_request: Math.round(unbatched.logBytes),
    };
  } finally {
    documents.destroy();
    low.destroy();
    await bench.stop();
  }
}

function mixedFleetCosts(guided: number, unguided: number) {
  return {
    cost_usd_per_vehicle_month_unguided: unguided,
    cost_usd_per_vehicle_month_fleet_10pct_guided: mixedFleetCost(guided, unguided, GUIDED_SHARE),
  };
}

async function postLocations(api: ApiClient, locations: readonly unknown[]): Promise<number> {
  const answer = await api.request('POST', '/v1/locations', { locations });
  if (answer.status !== 200) {
    throw new Error(`POST /v1/locations: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
  return Number(answer.body.accepted);
}

interface Snapshot {
  usage: StageUsage;
  tableBytes: number;
}

async function snapshot(
  usage: () => Promise<{ prod: StageUsage }>,
  client: DynamoDBClient,
  table: string,
): Promise<Snapshot> {
  return { usage: (await usage()).prod, tableBytes: await tableBytes(client, table) };
}

/**
 * What the prod stage did between two snapshots, per breadcrumb. Every function that ran counts
 * (ingest, the guidance worker, the offline sweep that also runs every minute deployed), except the
 * health snapshot: it runs every 15 minutes locally and daily deployed.
 */
function operationsPerBreadcrumb(
  before: Snapshot,
  after: Snapshot,
  breadcrumbs: number,
  writeUnits: number,
  readUnits: number,
): BreadcrumbOperations {
  const { functions, queues } = usageSince(before.usage, after.usage);
  const counted = Object.entries(functions).filter(([name]) => name !== HEALTH_SNAPSHOT.name);
  const sum = (pick: (usage: (typeof counted)[number][1]) => number) =>
    counted.reduce((total, [, usage]) => total + pick(usage), 0);
  const invocations = sum((usage) => usage.invocations);
  const apiRequests = sum((usage) => usage.apiRequests);
  const logBytes =
    sum((usage) => usage.logBytes) + invocations * LAMBDA_PLATFORM_LOG_BYTES + apiRequests * ACCESS_LOG_BYTES;
  const sqsRequests = Object.values(queues).reduce((total, queue) => total + queue.billedRequests, 0);
  return {
    dynamodbWriteUnits: writeUnits,
    dynamodbReadUnits: readUnits,
    dynamodbStoredBytes: Math.max(0, after.tableBytes - before.tableBytes) / breadcrumbs,
    sqsRequests: sqsRequests / breadcrumbs,
    lambdaInvocations: invocations / breadcrumbs,
    lambdaGbSeconds:
      gbSeconds(
        sum((usage) => usage.billedDurationMs),
        DEPLOYED_MEMORY_MB,
      ) / breadcrumbs,
    apiGatewayRequests: apiRequests / breadcrumbs,
    logBytes: logBytes / breadcrumbs,
  };
}

/** The table's size as DynamoDB bills storage: each item's attribute names and values plus 100 bytes. */
async function tableBytes(client: DynamoDBClient, table: string): Promise<number> {
  let total = 0;
  for await (const page of paginateScan({ client }, { TableName: table })) {
    for (const item of page.Items ?? []) total += 100 + itemBytes(item);
  }
  return total;
}

function itemBytes(item: Record<string, AttributeValue>): number {
  return Object.entries(item).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name) + valueBytes(value),
    0,
  );
}

/** DynamoDB's item size rules: strings and binaries by length, numbers ~1 byte per 2 digits + 1, 3 bytes per list or map plus 1 per element. */
function valueBytes(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return numberBytes(value.N);
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS) return value.SS.reduce((sum, s) => sum + Buffer.byteLength(s), 0);
  if (value.NS) return value.NS.reduce((sum, n) => sum + numberBytes(n), 0);
  if (value.BS) return value.BS.reduce((sum, b) => sum + b.byteLength, 0);
  if (value.L) return 3 + value.L.reduce((sum, element) => sum + 1 + valueBytes(element), 0);
  if (value.M) return 3 + Object.values(value.M).length + itemBytes(value.M);
  return 1;
}

function numberBytes(text: string): number {
  const digits = text
    .replace(/^-/, '')
    .replace(/e.*$/i, '')
    .replace('.', '')
    .replace(/^0+|0+$/g, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { benchWriteUnits } = await import('./write-units.ts');
  console.table(await benchCost(await benchWriteUnits()));
}
