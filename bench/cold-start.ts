/**
 * Cold starts: every function's bundle as Lambda gets it (scripts/bundle-functions.ts, built into a
 * temporary folder), its size, and how long a fresh Node process takes to import it, which is the
 * module-loading part of a Lambda init. Each function is imported `RUNS` times, one fresh process
 * each, never two at once (parallel runs would time the neighbours); its figure is the median.
 *
 * The environment is a Lambda's, with dummies: no network and no credentials are needed to import
 * (clients are built on the first request), and a bundle that reached for either would fail here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { workerFunctions } from '#lib/worker-functions.ts';
import { bundleFunctions, type FunctionBundleSize } from '#scripts/bundle-functions.ts';
import { percentileMs } from './measure.ts';

const RUNS = 5;

/** What lib/ sets on a function, with values that lead nowhere. */
const lambdaEnvironment = {
  AWS_REGION: 'us-east-1',
  AWS_DEFAULT_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'AKIDCOLDSTARTBENCH',
  AWS_SECRET_ACCESS_KEY: 'cold-start-bench',
  AWS_SESSION_TOKEN: 'cold-start-bench',
  AWS_LAMBDA_FUNCTION_NAME: 'cold-start-bench',
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
  STAGE: 'prod',
  TABLE_NAME: 'bench-table',
  CONTROL_TABLE_NAME: 'bench-control-table',
  CURSOR_SIGNING_KEY: 'cold-start-bench-cursor-key',
  DELIVERIES_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/deliveries',
  DELIVERIES_QUEUE_ARN: 'arn:aws:sqs:us-east-1:000000000000:deliveries',
  DELIVERIES_DLQ_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/deliveries-dlq',
  VEHICLE_UPDATES_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/vehicle-updates',
  SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/scheduler',
  SCHEDULE_GROUP_NAME: 'bench',
  POWERTOOLS_SERVICE_NAME: 'fleet-fuel',
  POWERTOOLS_METRICS_NAMESPACE: 'FleetFuel',
};

/** Prints the milliseconds `import()` of the bundle took inside this process. */
const RUNNER = `
const started = performance.now();
await import(process.argv[2]);
process.stdout.write(String(performance.now() - started));
`;

export interface FunctionColdStart extends FunctionBundleSize {
  /** An HTTP route's function (API routes, pages, `$default`, the operator API), not a worker or job. */
  api: boolean;
  /** Median over RUNS of the time `await import(bundle)` took in a fresh process. */
  initMs: number;
  /** Median over RUNS of the whole process (Node's own start included). */
  processMs: number;
}

export async function measureColdStarts(): Promise<FunctionColdStart[]> {
  const workdir = mkdtempSync(join(tmpdir(), 'cold-start-'));
  try {
    const { outdir, sizes } = await bundleFunctions({ outdir: join(workdir, 'functions') });
    const runner = join(workdir, 'runner.mjs');
    writeFileSync(runner, RUNNER);
    // An empty home: no ~/.aws files to find, as in Lambda.
    const env = { PATH: process.env.PATH ?? '', HOME: workdir, ...lambdaEnvironment };
    const workers = new Set(workerFunctions.map(({ name }) => name));
    const imports = new Map(sizes.map(({ name }) => [name, [] as number[]]));
    const processes = new Map(sizes.map(({ name }) => [name, [] as number[]]));
    // Round after round over every function rather than five runs in a row: on a shared machine a
    // busy spell then lands on one run of many functions, which the median drops, instead of on
    // every run of one.
    for (let run = 0; run < RUNS; run++) {
      for (const { name } of sizes) {
        const bundle = pathToFileURL(join(outdir, name, 'index.mjs')).href;
        const started = performance.now();
        const printed = execFileSync(process.execPath, [runner, bundle], { env, encoding: 'utf8' });
        processes.get(name)?.push(performance.now() - started);
        imports.get(name)?.push(Number(printed));
      }
    }
    return sizes.map((size) => ({
      ...size,
      api: !workers.has(size.name),
      initMs: percentileMs(imports.get(size.name) ?? [], 0.5),
      processMs: percentileMs(processes.get(size.name) ?? [], 0.5),
    }));
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

function worst<T>(items: readonly T[], by: (item: T) => number): T {
  return items.reduce((a, b) => (by(b) > by(a) ? b : a));
}

/** The figures for .local/bench.json, from measureColdStarts(). */
export function coldStartFigures(functions: readonly FunctionColdStart[]) {
  const api = functions.filter((fn) => fn.api);
  const others = functions.filter((fn) => !fn.api);
  const slowest = worst(api, (fn) => fn.initMs);
  const largest = worst(api, (fn) => fn.bytes);
  const mostCode = worst(api, (fn) => fn.totalBytes);
  const slowestOther = worst(others, (fn) => fn.initMs);
  const largestOther = worst(others, (fn) => fn.bytes);
  return {
    function_init_p50_ms: percentileMs(
      api.map((fn) => fn.initMs),
      0.5,
    ),
    function_init_worst_ms: slowest.initMs,
    function_init_worst_name: slowest.name,
    function_bundle_max_kb: kb(largest.bytes),
    function_bundle_max_name: largest.name,
    function_bundles_over_300_kb: api.filter((fn) => fn.bytes > 300 * 1024).length,
    // With lazy chunks (the MCP tools' routes) a function holds more code than a cold start loads.
    function_code_max_total_kb: kb(mostCode.totalBytes),
    function_code_max_total_name: mostCode.name,
    worker_init_worst_ms: slowestOther.initMs,
    worker_init_worst_name: slowestOther.name,
    worker_bundle_max_kb: kb(largestOther.bytes),
    worker_bundle_max_name: largestOther.name,
    // Import times stretch with the machine's load (2 shared cores here): read them beside it.
    cold_start_load_average_1m: Math.round(loadavg()[0] ?? 0),
  };
}

export async function benchColdStart() {
  return coldStartFigures(await measureColdStarts());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const functions = await measureColdStarts();
  console.table(
    functions.map(({ name, api, bytes, gzipBytes, totalBytes, initMs, processMs }) => ({
      function: name,
      kind: api ? 'api' : 'worker/job',
      kb: kb(bytes),
      gzip_kb: kb(gzipBytes),
      total_kb: kb(totalBytes),
      init_ms: initMs,
      process_ms: Math.round(processMs),
    })),
  );
  console.table(Object.entries(coldStartFigures(functions)).map(([figure, value]) => ({ figure, value })));
}
