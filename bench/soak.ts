/**
 * `npm run soak`: a fleet-scale soak of the ingest path on the local stack (loopback only, bounded;
 * not part of `npm test`). 5,000 simulated trucks report a breadcrumb a minute for 15 minutes
 * (`--vehicles`, `--minutes` for shorter runs), 10 % of them under active guidance, the rest
 * driving, and every fifth unguided truck dwelling a few minutes and filling up.
 *
 * Each minute every truck's breadcrumb goes out as a telematics partner sends them: ⌈vehicles / 500⌉
 * POST /v1/locations of 500 items (one breadcrumb per truck per request), spread evenly over the
 * minute (batch b at b × 60 s / batches), as a partner forwards reports as its trucks send them.
 *
 * Prints and writes to .local/soak.json: ingest latency p50/p99 per POST; worker lag p50/p99 (the
 * batch answered → the guidance worker has handled every vehicle-updates message queued by then,
 * the batch's included: the queue's counters, polled every 250 ms); breadcrumbs lost (checked
 * against what was sent: each one in history, each truck's latest position the last one sent);
 * 5xx answers; the dead-letter queues' depth; memory (this process and the prod stage server).
 * A batch answered 5xx (or whose connection dropped) is resent, up to 3 tries, as a partner would:
 * "lost" is what is not stored after that, and every 5xx is counted either way.
 * Exits 1 when a breadcrumb was lost or any answer was a 5xx.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { StageUsage } from '#local/usage.ts';
import { usageSince } from '#local/usage.ts';
import { createDocumentClient } from '#shared/table/dynamo-client.ts';
import { createVehiclePositionStore } from '#shared/tracking/store/vehicle-positions.ts';
import { createVehicleTrackingStore } from '#shared/tracking/store/vehicle-tracking.ts';
import { gbSeconds } from './cost-model.ts';
import {
  type Breadcrumb,
  createTrucks,
  fleetOperations,
  GUIDANCE_DESTINATION,
  inPool,
  percentile,
  SimulatedTruck,
  startBenchStack,
  vehicleUpdatesProgress,
  workerCaughtUp,
} from './fleet-sim.ts';

const BATCH_SIZE = 500;
/** A partner's tries per batch when the answer is a 5xx or the connection drops. */
const POST_ATTEMPTS = 3;
const GUIDED_SHARE = 0.1;
const LAG_POLL_MS = 250;
/** A breadcrumb the worker has not consumed after this long counts as a lag timeout. */
const LAG_TIMEOUT_MS = 60_000;
const MINUTE_MS = 60_000;
const DRAIN_TIMEOUT_MS = 180_000;
const MB = 1024 * 1024;

const { values: flags } = parseArgs({
  options: {
    vehicles: { type: 'string', default: '5000' },
    minutes: { type: 'string', default: '15' },
  },
});
const VEHICLES = wholeNumber('vehicles', flags.vehicles);
const MINUTES = wholeNumber('minutes', flags.minutes);

function wholeNumber(name: string, value: string | undefined): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) {
    console.error(`--${name} must be a whole number of at least 1 (got ${value})`);
    process.exit(2);
  }
  return parsed;
}

const bench = await startBenchStack({ label: 'soak' });
const { stack, api, fleetId } = bench;
const documents = createDocumentClient({ region: 'us-east-1', endpoint: stack.dynamoDbEndpoint });
const tracking = createVehicleTrackingStore(documents, stack.tables.prod);
const positions = createVehiclePositionStore(documents, stack.tables.prod);

const memory = { soakRss: 0, soakHeap: 0, serverRss: 0, serverHeap: 0, serverRssStart: 0, serverRssEnd: 0 };
const sampleOwnMemory = () => {
  const { rss, heapUsed } = process.memoryUsage();
  memory.soakRss = Math.max(memory.soakRss, rss);
  memory.soakHeap = Math.max(memory.soakHeap, heapUsed);
};
const sampleServer = async (): Promise<StageUsage> => {
  const { prod } = await stack.usage();
  memory.serverRss = Math.max(memory.serverRss, prod.memory.rssBytes);
  memory.serverHeap = Math.max(memory.serverHeap, prod.memory.heapUsedBytes);
  return prod;
};
const memoryTimer = setInterval(sampleOwnMemory, 5_000);
// Ctrl-C (or a kill) mid-run still stops DynamoDB Local and the stage servers.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`soak: ${signal}: stopping the local stack`);
    void bench.stop().finally(() => process.exit(130));
  });
}

let exitCode = 1;
try {
  const log = (line: string) => console.log(`soak: ${line}`);
  log(`creating ${VEHICLES} trucks`);
  const routes = fleetOperations();
  const ids = await createTrucks(api, VEHICLES, 'SOAK');
  const guidedCount = Math.round(VEHICLES * GUIDED_SHARE);
  // Every tenth truck is guided, so guided trucks share batches with the rest as in a real fleet.
  const guidedEvery = Math.max(1, Math.round(1 / GUIDED_SHARE));
  const trucks = ids.map(
    (id, index) =>
      new SimulatedTruck(id, index, index % guidedEvery === 0 && index / guidedEvery < guidedCount, routes),
  );
  const guided = trucks.filter((truck) => truck.guided);
  const sent = new Map<string, number[]>(ids.map((id) => [id, []]));
  const latencies: number[] = [];
  const lags: number[] = [];
  let lagTimeouts = 0;
  let accepted = 0;
  let rejected = 0;
  let failedPosts = 0;
  let retriedPosts = 0;
  let lateMinutes = 0;

  /**
   * How long after `sentAt` the guidance worker had handled every message queued by then (polled):
   * the batch's messages included. A quiet cycle stores nothing, so the tracking item is no signal.
   */
  const watchLag = async (sentAt: number) => {
    if (await workerCaughtUp(stack, sentAt + LAG_TIMEOUT_MS, LAG_POLL_MS))
      lags.push(performance.now() - sentAt);
    else lagTimeouts += 1;
  };

  /**
   * One batch as a partner sends it: a 5xx or a dropped connection is retried (resending is safe: a
   * breadcrumb is stored once), at most {@link POST_ATTEMPTS} times, 2 s apart. Every answer's
   * latency counts, and every 5xx stays counted. Undefined when no attempt got a 200.
   */
  const postBatch = async (locations: readonly Breadcrumb[]) => {
    for (let attempt = 1; attempt <= POST_ATTEMPTS; attempt++) {
      const answer = await api.request('POST', '/v1/locations', { locations }).catch((error: unknown) => {
        log(`POST /v1/locations failed: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      });
      if (answer) latencies.push(answer.ms);
      if (answer?.status === 200) return answer;
      if (answer) log(`POST /v1/locations: ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`);
      if (answer && answer.status < 500) return undefined;
      retriedPosts += 1;
      await sleep(2_000);
    }
    return undefined;
  };

  /**
   * Every truck's breadcrumb of `minute`, in batches of 500 spread evenly over the minute (batch b
   * goes out b × 60 s / batches after the minute starts), as a partner forwards its trucks' reports
   * as they come in. Resolves when every batch was answered and every watched truck's lag is known.
   */
  const sendMinute = async (minute: number, recordedAtMs: number, watch: boolean) => {
    const crumbs: Breadcrumb[] = trucks.map((truck) => truck.breadcrumb(minute, recordedAtMs));
    const batches = Array.from({ length: Math.ceil(crumbs.length / BATCH_SIZE) }, (_, batch) =>
      crumbs.slice(batch * BATCH_SIZE, (batch + 1) * BATCH_SIZE),
    );
    const slotMs = MINUTE_MS / batches.length;
    const minuteStart = performance.now();
    const watchers: Promise<void>[] = [];
    await Promise.all(
      batches.map(async (locations, batch) => {
        await sleep(Math.max(0, minuteStart + batch * slotMs - performance.now()));
        const sentAt = performance.now();
        const answer = await postBatch(locations);
        if (!answer) {
          failedPosts += 1;
          return;
        }
        accepted += Number(answer.body.accepted);
        rejected += Number(answer.body.rejected);
        for (const crumb of locations) sent.get(crumb.vehicle_id)?.push(recordedAtMs);
        if (watch) watchers.push(watchLag(sentAt));
      }),
    );
    await Promise.all(watchers);
  };

  // Minute 0 gives every truck a position (guidance starts from it); it is checked like the rest.
  const runStartMs = Date.now();
  await sendMinute(0, runStartMs - 1_000, false);
  log(`starting guidance on ${guided.length} trucks`);
  await inPool(guided, 8, async (truck) => {
    const answer = await api.request('POST', `/v1/vehicles/${truck.vehicleId}/guidance`, {
      destination: GUIDANCE_DESTINATION,
      min_arrival_fuel_percent: 20,
    });
    if (answer.status !== 201) {
      log(`guidance for ${truck.vehicleId}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
    }
  });
  const serverAtStart = await sampleServer();
  memory.serverRssStart = serverAtStart.memory.rssBytes;

  // The timed minutes start once guidance runs; each is recorded a second before it is due.
  const loopStartMs = Date.now();
  const recordedAt = (minute: number) => loopStartMs + (minute - 1) * MINUTE_MS - 1_000;
  for (let minute = 1; minute <= MINUTES; minute++) {
    const dueMs = loopStartMs + (minute - 1) * MINUTE_MS;
    const waitMs = dueMs - Date.now();
    if (waitMs > 0) await sleep(waitMs);
    else if (waitMs < -1_000) lateMinutes += 1;
    const recordedAtMs = recordedAt(minute);
    await sendMinute(minute, recordedAtMs, true);
    sampleOwnMemory();
    await sampleServer();
    log(
      `minute ${minute}/${MINUTES}: ${Math.ceil(VEHICLES / BATCH_SIZE)} POSTs, ingest p99 ${Math.round(
        percentile(latencies, 99),
      )} ms, worker lag p99 ${Math.round(percentile(lags, 99))} ms, 5xx ${api.serverErrors()}`,
    );
  }

  // Let the worker finish, then compare what is stored with what was sent.
  const lastMs = recordedAt(MINUTES);
  await workerCaughtUp(stack, performance.now() + DRAIN_TIMEOUT_MS, 100);
  const progress = await vehicleUpdatesProgress(stack);
  const unhandled = progress.sent - progress.done;
  log('checking history and latest positions against what was sent');
  let missing = 0;
  let latestWrong = 0;
  const untilMs = Date.now();
  await inPool(ids, 16, async (id) => {
    const times = sent.get(id) ?? [];
    const stored = new Set(
      (await positions.historySince(fleetId, id, runStartMs - MINUTE_MS, untilMs)).map((p) => p.recordedAtMs),
    );
    missing += times.filter((time) => !stored.has(time)).length;
    const latest = await positions.latest(fleetId, id);
    if (times.length > 0 && latest?.recordedAtMs !== times[times.length - 1]) latestWrong += 1;
  });
  const following = (
    await inPool(guided, 16, async (truck) => (await tracking.get(fleetId, truck.vehicleId)).session)
  ).filter((session) => session?.status === 'active' && session.position?.recordedAtMs === lastMs).length;

  const serverAtEnd = await sampleServer();
  memory.serverRssEnd = serverAtEnd.memory.rssBytes;
  const { functions, queues } = usageSince(serverAtStart, serverAtEnd);
  const { sandbox } = await stack.usage();
  const deadLetters = (usage: StageUsage, queue: string) => usage.queues[queue]?.deadLetters ?? 0;
  const sentCount = [...sent.values()].reduce((sum, times) => sum + times.length, 0);
  const runBreadcrumbs = MINUTES * VEHICLES;
  const billedMs = Object.values(functions).reduce((sum, usage) => sum + usage.billedDurationMs, 0);
  const sqsRequests = Object.values(queues).reduce((sum, queue) => sum + queue.billedRequests, 0);
  // A rejected breadcrumb is missing from history too; a breadcrumb of a failed POST was never stored.
  const lost = missing + (VEHICLES * (MINUTES + 1) - sentCount);
  const round = (value: number) => Math.round(value);
  const figures = {
    measured_at: new Date().toISOString(),
    vehicles: VEHICLES,
    minutes: MINUTES,
    guided_vehicles: guided.length,
    batch_size: BATCH_SIZE,
    posts_per_minute: Math.ceil(VEHICLES / BATCH_SIZE),
    breadcrumbs_to_send: VEHICLES * (MINUTES + 1),
    breadcrumbs_accepted: accepted,
    breadcrumbs_rejected: rejected,
    retried_posts: retriedPosts,
    failed_posts: failedPosts,
    breadcrumbs_missing_from_history: missing,
    breadcrumbs_lost: lost,
    latest_position_wrong_vehicles: latestWrong,
    server_errors_5xx: api.serverErrors(),
    ingest_latency_p50_ms: round(percentile(latencies, 50)),
    ingest_latency_p99_ms: round(percentile(latencies, 99)),
    ingest_latency_max_ms: round(percentile(latencies, 100)),
    worker_lag_p50_ms: round(percentile(lags, 50)),
    worker_lag_p99_ms: round(percentile(lags, 99)),
    worker_lag_samples: lags.length,
    worker_lag_timeouts: lagTimeouts,
    worker_messages_unhandled_after_drain: unhandled,
    guided_sessions_following_last_breadcrumb: following,
    dlq_depth_vehicle_updates:
      deadLetters(serverAtEnd, 'vehicleUpdates') + deadLetters(sandbox, 'vehicleUpdates'),
    dlq_depth_deliveries: deadLetters(serverAtEnd, 'deliveries') + deadLetters(sandbox, 'deliveries'),
    late_minutes: lateMinutes,
    soak_process_rss_max_mb: round(memory.soakRss / MB),
    soak_process_heap_max_mb: round(memory.soakHeap / MB),
    stage_server_rss_start_mb: round(memory.serverRssStart / MB),
    stage_server_rss_end_mb: round(memory.serverRssEnd / MB),
    stage_server_rss_max_mb: round(memory.serverRss / MB),
    stage_server_heap_max_mb: round(memory.serverHeap / MB),
    // At this mix (10 % guided), measured locally: an estimate of Lambda's.
    lambda_gb_seconds_per_breadcrumb: Number(gbSeconds(billedMs / runBreadcrumbs, 512).toPrecision(3)),
    sqs_requests_per_breadcrumb: Number((sqsRequests / runBreadcrumbs).toPrecision(3)),
  };
  mkdirSync('.local', { recursive: true });
  writeFileSync('.local/soak.json', `${JSON.stringify(figures, null, 2)}\n`);
  console.table(Object.entries(figures).map(([figure, value]) => ({ figure, value })));
  console.log('Written to .local/soak.json');
  const failures = [
    lost > 0 ? `${lost} breadcrumbs lost` : '',
    latestWrong > 0 ? `${latestWrong} trucks' latest position is not the last sent` : '',
    figures.server_errors_5xx > 0 ? `${figures.server_errors_5xx} answers were 5xx` : '',
  ].filter(Boolean);
  if (failures.length > 0) console.error(`soak FAILED: ${failures.join('; ')}`);
  exitCode = failures.length > 0 ? 1 : 0;
} finally {
  clearInterval(memoryTimer);
  documents.destroy();
  await bench.stop();
}
process.exit(exitCode);
