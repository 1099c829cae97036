import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { MESSAGING_ENV, SANDBOX_BASE_URL_ENV, type Stage } from '#shared/platform/config.ts';
import { OPERATOR_AUTH_ENV } from '#shared/platform/http/operator.ts';
import { createStationCatalogStore } from '#shared/stations/store/station-catalog.ts';
import { createDocumentClient, type DocumentClient } from '#shared/table/dynamo-client.ts';
import {
  DEFAULT_CREDENTIALS_PATH,
  type LocalCredentials,
  readCredentials,
  writeCredentials,
} from './credentials.ts';
import { randomCursorSigningKey } from './cursor-key.ts';
import {
  type LocalCredentialsSeed,
  type SeedOptions,
  type SeedOutcome,
  type SeedTables,
  seedDemoData,
} from './demo-seed.ts';
import { LOCAL_CREDENTIALS, startDynamoDbLocal } from './dynamodb-local.ts';
import { assertPortFree } from './free-port.ts';
import { FUNCTION_BUNDLES_ENV } from './function-loader.ts';
import { formatLogRecord, LOG_FORMAT_ENV, type LogFormat } from './log-lines.ts';
import {
  STAGE_SERVER_CHILD_ENV,
  type StageControlMessage,
  type StageServerMessage,
} from './stage-protocol.ts';
import type { CatalogSummary, StartupEvent } from './startup-report.ts';
import { ensureTable } from './table-setup.ts';
import { METER_LOGS_ENV, type StageUsage } from './usage.ts';

/** One table per stage, as deployed (each stage is its own stack with its own table). */
export const LOCAL_TABLES = {
  prod: 'fleet-fuel-prod',
  sandbox: 'fleet-fuel-sandbox',
} as const satisfies Record<Stage, string>;

/** The control plane both stages read (accounts, keys, plans, production access): its own table, as deployed. */
export const LOCAL_CONTROL_TABLE = 'fleet-fuel-control';

export type SeedFunction = (
  client: DocumentClient,
  tables: SeedTables,
  options: SeedOptions,
) => Promise<LocalCredentialsSeed & { outcome?: SeedOutcome }>;

export interface LocalStackOptions {
  /** Prod-stage port; 0 = any free port. Default 3000. */
  port?: number;
  /** Sandbox-stage port; 0 = any free port. Default 3001. */
  sandboxPort?: number;
  /** DynamoDB Local port; omitted or 0 = any free port. */
  dynamoDbPort?: number;
  /**
   * Persist DynamoDB Local's data in this folder; omitted = in memory. With a folder, the keys of
   * the credentials file already there are kept when the data still holds them.
   */
  dbPath?: string;
  /** Where to write the credentials file. Default `.local/credentials.json`. */
  credentialsPath?: string;
  /** Default: a random key per start (cursors then die with the stack). */
  cursorSigningKey?: string;
  /** No request log lines, handler logs at WARN and above. */
  quiet?: boolean;
  /**
   * Count the bytes each function logs (`usage()`, for the cost model). Default true; the
   * throughput benchmark turns it off, as it costs the stage servers about a tenth of their CPU.
   */
  meterLogs?: boolean;
  /** `lines` (default): one readable line per request and log record; `json`: records in full. */
  logFormat?: LogFormat;
  /** Where the stage servers' lines go, prefixed with their stage. Default: this process's stdout/stderr. */
  print?: (line: string, stream: 'stdout' | 'stderr') => void;
  /** Called as each start-up step completes (`npm start` prints them). */
  onProgress?: (event: StartupEvent) => void;
  region?: string;
  /** Default: the demo seed of local/demo-seed.ts. */
  seed?: SeedFunction;
  /**
   * Run the bundles that deploy instead of the TypeScript sources: the folder scripts/bundle-functions.ts
   * wrote (`<folder>/<name>/index.mjs` per function). A promise lets the caller bundle while DynamoDB
   * Local starts; the stage servers need it only when they listen. Default: `LOCAL_FUNCTION_BUNDLES`
   * from the environment, else the sources.
   */
  functionBundles?: string | Promise<string>;
  /**
   * Called once when DynamoDB Local or a stage server dies while the stack is running; the rest
   * of the stack is already being stopped. Default: print the message.
   */
  onUnexpectedExit?: (message: string) => void;
}

export interface LocalStack {
  credentials: LocalCredentials;
  /** Absolute path of the credentials file written at start. */
  credentialsPath: string;
  dynamoDbEndpoint: string;
  tables: typeof LOCAL_TABLES;
  /** DynamoDB Local's data folder; undefined when in memory. */
  dbPath: string | undefined;
  /** The processes behind the stack (benchmarks read their CPU time: local/process-cpu.ts). */
  pids: { dynamoDb: number | undefined; prod: number | undefined; sandbox: number | undefined };
  /** The bundles folder the stage servers run (absolute); undefined when they run the sources. */
  functionBundles: string | undefined;
  /** Milliseconds per start-up phase, for the ready line and for keeping start-up fast. */
  timings: { dynamoDb: number; tables: number; seed: number; servers: number; total: number };
  /**
   * Each stage server's usage counters so far (invocations, durations, log bytes, queue requests,
   * memory): what the cost model and the soak read (local/usage.ts).
   */
  usage(): Promise<Record<Stage, StageUsage>>;
  /** Stops both stage servers and DynamoDB Local; safe to call more than once. */
  stop(): Promise<void>;
}

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const stageServerFile = fileURLToPath(new URL('./stage-server.ts', import.meta.url));

/**
 * The local stack behind `npm start` and the e2e tests: DynamoDB Local, one table per stage, the
 * demo seed, and a prod and a sandbox stage server that turn HTTP requests into API Gateway
 * events for the same handler modules the Lambdas run.
 *
 * @example
 * const stack = await startLocalStack({ port: 0, sandboxPort: 0, credentialsPath: tmpFile, quiet: true });
 * await fetch(`${stack.credentials.base_url}/v1/openapi.json`);
 * await stack.stop();
 */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const started = performance.now();
  const region = options.region ?? 'us-east-1';
  const quiet = options.quiet ?? false;
  const logFormat = options.logFormat ?? 'lines';
  const print = options.print ?? printToConsole;
  const progress = options.onProgress ?? (() => {});
  const credentialsPath = resolve(options.credentialsPath ?? DEFAULT_CREDENTIALS_PATH);
  const dbPath = options.dbPath ? resolve(options.dbPath) : undefined;
  const cursorSigningKey = options.cursorSigningKey ?? randomCursorSigningKey();
  const cleanup: (() => Promise<void>)[] = [];
  let stopping: Promise<void> | undefined;
  // Every caller (signal handler, crash watcher, test teardown) waits for the same orderly stop.
  const stop = () => {
    stopping ??= (async () => {
      for (const step of cleanup.splice(0).reverse()) await step().catch(() => {});
    })();
    return stopping;
  };

  try {
    const ports = { prod: options.port ?? 3000, sandbox: options.sandboxPort ?? 3001 };
    for (const port of Object.values(ports)) if (port !== 0) await assertPortFree(port);

    // The stage servers load the route table while Java starts; they listen once the data is there.
    const meterLogs = options.meterLogs ?? true;
    const common = { region, cursorSigningKey, quiet, logFormat, print, meterLogs };
    const prod = forkStageServer({ ...common, stage: 'prod', port: ports.prod }, cleanup);
    const sandbox = forkStageServer({ ...common, stage: 'sandbox', port: ports.sandbox }, cleanup);

    const db = await startDynamoDbLocal({ port: options.dynamoDbPort, dbPath });
    // Stopped last (cleanup runs in reverse): the stage servers' workers may still be writing.
    cleanup.unshift(db.stop);
    const dynamoDbReady = performance.now();
    progress({ step: 'dynamodb', endpoint: db.endpoint, dbPath, ms: Math.round(dynamoDbReady - started) });

    const admin = new DynamoDBClient({ endpoint: db.endpoint, region, credentials: LOCAL_CREDENTIALS });
    let created: boolean[];
    try {
      created = await Promise.all([
        ensureTable(admin, LOCAL_TABLES.prod),
        ensureTable(admin, LOCAL_TABLES.sandbox),
        ensureTable(admin, LOCAL_CONTROL_TABLE),
      ]);
    } finally {
      admin.destroy();
    }
    const tablesReady = performance.now();
    const tableNames = [LOCAL_TABLES.prod, LOCAL_TABLES.sandbox, LOCAL_CONTROL_TABLE];
    progress({
      step: 'tables',
      created: tableNames.filter((_, index) => created[index]),
      existing: tableNames.filter((_, index) => !created[index]),
      ms: Math.round(tablesReady - dynamoDbReady),
    });

    const seed = options.seed ?? seedDemoData;
    const documentClient = createDocumentClient({ region, endpoint: db.endpoint });
    let seeded: LocalCredentialsSeed & { outcome?: SeedOutcome };
    let catalogReady = tablesReady;
    try {
      const catalogs = await describeCatalogs(documentClient);
      catalogReady = performance.now();
      progress({ step: 'catalog', catalogs, ms: Math.round(catalogReady - tablesReady) });
      seeded = await seed(
        documentClient,
        {
          prodTable: LOCAL_TABLES.prod,
          sandboxTable: LOCAL_TABLES.sandbox,
          controlTable: LOCAL_CONTROL_TABLE,
        },
        // Only kept data can still hold the last run's keys; an in-memory database never does.
        { previous: dbPath ? previousCredentials(credentialsPath) : undefined },
      );
    } finally {
      documentClient.destroy();
    }
    const seedDone = performance.now();
    progress({
      step: 'seed',
      outcome: seeded.outcome ?? { world: 'created', keys: 'issued' },
      ms: Math.round(seedDone - catalogReady),
    });

    // Empty: the sources (a stage server's own environment may not name a folder either).
    const functionBundles = await resolveFunctionBundles(
      options.functionBundles ?? process.env[FUNCTION_BUNDLES_ENV],
    );
    const code = { [FUNCTION_BUNDLES_ENV]: functionBundles ?? '' };
    // The sandbox first: production names its URL to callers of the sandbox-only routes.
    const sandboxPort = await sandbox.listen({ DYNAMODB_ENDPOINT: db.endpoint, ...code });
    const sandboxBaseUrl = `http://127.0.0.1:${sandboxPort}`;
    const prodPort = await prod.listen({
      DYNAMODB_ENDPOINT: db.endpoint,
      [SANDBOX_BASE_URL_ENV]: sandboxBaseUrl,
      ...code,
    });
    const serversReady = performance.now();
    progress({
      step: 'servers',
      ports: { prod: prodPort, sandbox: sandboxPort },
      functionBundles,
      ms: Math.round(serversReady - seedDone),
    });

    const credentials: LocalCredentials = {
      base_url: `http://127.0.0.1:${prodPort}`,
      sandbox_base_url: sandboxBaseUrl,
      operator_token: seeded.operator_token,
      fleets: {
        company: seeded.fleets.company,
        company_sandbox: seeded.fleets.company_sandbox,
        partner_granted: [...seeded.fleets.partner_granted],
      },
      keys: {
        partner_live: seeded.keys.partner_live,
        company_live: seeded.keys.company_live,
        company_test: seeded.keys.company_test,
        company_readonly: seeded.keys.company_readonly,
        company_revoked: seeded.keys.company_revoked,
        company_suspended: seeded.keys.company_suspended,
      },
    };
    writeCredentials(credentialsPath, credentials);

    const report = options.onUnexpectedExit ?? ((message: string) => console.error(message));
    const watch = (what: string, exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>) => {
      void exited.then(async ({ code, signal }) => {
        // Ctrl-C reaches every process of the group at once; give our own signal handler the
        // chance to start the orderly stop before calling this a crash.
        await sleep(250);
        if (stopping) return;
        const how = signal ? `killed by ${signal}` : `exit code ${code}`;
        const pending = stop();
        report(`Local stack: ${what} stopped unexpectedly (${how}); stopping the local stack.`);
        await pending;
      });
    };
    watch('DynamoDB Local', db.exited);
    watch('the prod stage server', prod.exited);
    watch('the sandbox stage server', sandbox.exited);

    const total = performance.now();
    return {
      credentials,
      credentialsPath,
      dynamoDbEndpoint: db.endpoint,
      dbPath,
      functionBundles,
      tables: LOCAL_TABLES,
      pids: { dynamoDb: db.pid, prod: prod.pid, sandbox: sandbox.pid },
      timings: {
        dynamoDb: Math.round(dynamoDbReady - started),
        tables: Math.round(tablesReady - dynamoDbReady),
        seed: Math.round(seedDone - catalogReady),
        servers: Math.round(serversReady - seedDone),
        total: Math.round(total - started),
      },
      usage: async () => {
        const [prodUsage, sandboxUsage] = await Promise.all([prod.usage(), sandbox.usage()]);
        return { prod: prodUsage, sandbox: sandboxUsage };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The bundles folder as an absolute path, or undefined for the sources. A folder that is not there is
 * a mistake to say at once, not a 500 on every request.
 */
async function resolveFunctionBundles(
  folder: string | Promise<string> | undefined,
): Promise<string | undefined> {
  const given = await folder;
  if (!given) return undefined;
  const absolute = resolve(given);
  if (!existsSync(absolute)) {
    throw new Error(
      `${FUNCTION_BUNDLES_ENV}: ${absolute} does not exist; write the bundles with \`npm run build\` (into dist/functions) or unset it to run the sources`,
    );
  }
  return absolute;
}

/** The credentials file of the last run, when there is one in the expected shape. */
function previousCredentials(path: string): LocalCredentialsSeed | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return readCredentials(path);
  } catch {
    return undefined; // damaged or from an older layout: new keys replace it
  }
}

/** Which catalog each stage serves: an imported one (`npm run stations:import`) or the synthetic one. */
async function describeCatalogs(client: DocumentClient): Promise<CatalogSummary[]> {
  let synthetic: { count: number; states: number } | undefined;
  const summaries: CatalogSummary[] = [];
  for (const stage of ['prod', 'sandbox'] as const) {
    const pointer = await createStationCatalogStore(client, LOCAL_TABLES[stage]).current();
    if (pointer) {
      summaries.push({ stage, source: 'imported', count: pointer.count, detail: pointer.source });
      continue;
    }
    // The stage servers build the same catalog on first use; built here once to say what it holds.
    synthetic ??= await summarizeSyntheticCatalog();
    summaries.push({
      stage,
      source: 'synthetic',
      count: synthetic.count,
      detail: `${synthetic.states} states`,
    });
  }
  return summaries;
}

async function summarizeSyntheticCatalog(): Promise<{ count: number; states: number }> {
  const { buildSyntheticCatalog } = await import('#shared/geo/synthetic-catalog.ts');
  const stations = buildSyntheticCatalog(Date.now());
  return { count: stations.length, states: new Set(stations.map((station) => station.state)).size };
}

function printToConsole(line: string, stream: 'stdout' | 'stderr'): void {
  (stream === 'stdout' ? process.stdout : process.stderr).write(`${line}\n`);
}

interface StageServerSpec {
  stage: Stage;
  port: number;
  region: string;
  cursorSigningKey: string;
  quiet: boolean;
  meterLogs: boolean;
  logFormat: LogFormat;
  print: (line: string, stream: 'stdout' | 'stderr') => void;
}

interface StageProcess {
  pid: number | undefined;
  /** Hands the child the rest of its environment; resolves with the port it bound. */
  listen(env: Record<string, string>): Promise<number>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Asks the child for its usage counters. */
  usage(): Promise<StageUsage>;
}

const USAGE_TIMEOUT_MS = 30_000;

// Sized for a loaded 2-core machine: a stage server loads the whole app through tsx at start.
const STAGE_START_TIMEOUT_MS = 180_000;

function forkStageServer(spec: StageServerSpec, cleanup: (() => Promise<void>)[]): StageProcess {
  const child = fork(stageServerFile, [], {
    cwd: repoRoot,
    // LOCAL_STAGE_NODE_ARGS adds Node flags NODE_OPTIONS refuses, e.g. `--cpu-prof` to profile a stage.
    execArgv: ['--import', 'tsx', ...stageNodeArgs(process.env)],
    env: stageEnvironment(spec),
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  relayOutput(child.stdout, 'stdout', spec);
  relayOutput(child.stderr, 'stderr', spec);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit({ code, signal }));
  });
  const killOnExit = () => {
    if (isRunning(child)) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  cleanup.push(async () => {
    process.off('exit', killOnExit);
    if (!isRunning(child)) return;
    if (child.connected) child.send({ type: 'stop' } satisfies StageControlMessage);
    else child.kill('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), sleep(3000).then(() => false)]);
    if (!stopped) {
      child.kill('SIGKILL');
      await exited;
    }
  });

  const messages = (type: StageServerMessage['type']) =>
    new Promise<StageServerMessage>((resolveMessage, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`The ${spec.stage} stage server did not start within ${STAGE_START_TIMEOUT_MS} ms`),
          ),
        STAGE_START_TIMEOUT_MS,
      );
      const onMessage = (message: StageServerMessage) => {
        if (message.type !== type && message.type !== 'error') return;
        clearTimeout(timer);
        child.off('message', onMessage);
        if (message.type === 'error') {
          reject(new Error(`The ${spec.stage} stage server could not start: ${message.message}`));
        } else resolveMessage(message);
      };
      child.on('message', onMessage);
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(
          new Error(
            `The ${spec.stage} stage server exited during start-up (${signal ?? `exit code ${code}`}); see above`,
          ),
        );
      });
    });
  const loaded = messages('loaded');
  // Observed later, in listen(); until then a failure must not count as unhandled.
  loaded.catch(() => {});

  return {
    pid: child.pid,
    exited,
    async listen(env) {
      await loaded;
      const ready = messages('ready');
      child.send({ type: 'listen', env } satisfies StageControlMessage);
      const message = await ready;
      return message.type === 'ready' ? message.port : 0;
    },
    usage: () =>
      new Promise<StageUsage>((resolveUsage, reject) => {
        const timer = setTimeout(() => {
          child.off('message', onMessage);
          reject(
            new Error(
              `The ${spec.stage} stage server did not report its usage within ${USAGE_TIMEOUT_MS} ms`,
            ),
          );
        }, USAGE_TIMEOUT_MS);
        const onMessage = (message: StageServerMessage) => {
          if (message.type !== 'usage') return;
          clearTimeout(timer);
          child.off('message', onMessage);
          resolveUsage(message.usage);
        };
        child.on('message', onMessage);
        child.send({ type: 'usage' } satisfies StageControlMessage);
      }),
  };
}

/** Extra Node flags for the stage servers (`LOCAL_STAGE_NODE_ARGS`, space-separated); none by default. */
export const STAGE_NODE_ARGS_ENV = 'LOCAL_STAGE_NODE_ARGS';

function stageNodeArgs(env: NodeJS.ProcessEnv): string[] {
  return (env[STAGE_NODE_ARGS_ENV] ?? '').split(/\s+/).filter(Boolean);
}

/**
 * A stage server's environment: what the Lambda of that stage gets (STAGE, TABLE_NAME, …) plus
 * the local wiring. Credentials are fixed to dummies so no local run can ever reach an AWS
 * account, whatever the developer's shell holds.
 */
function stageEnvironment(spec: StageServerSpec): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    // The test runner's own variables must not change how handlers behave, and no AWS profile,
    // role or endpoint of the developer's shell may leak in.
    const awsSetting = name.startsWith('AWS_') && !name.startsWith('AWS_SDK_JS_');
    if (!name.startsWith('VITEST') && !awsSetting) env[name] = value;
  }
  return {
    ...env,
    STAGE: spec.stage,
    TABLE_NAME: LOCAL_TABLES[spec.stage],
    CONTROL_TABLE_NAME: LOCAL_CONTROL_TABLE,
    // The operator API runs on the production stage and creates sandbox twins in the sandbox table.
    // Operators authenticate with the seeded operator token locally (IAM in AWS).
    ...(spec.stage === 'prod'
      ? { SANDBOX_TABLE_NAME: LOCAL_TABLES.sandbox, [OPERATOR_AUTH_ENV]: 'token' }
      : {}),
    CURSOR_SIGNING_KEY: spec.cursorSigningKey,
    AWS_REGION: spec.region,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    // Node 20 is what these machines run (DESIGN.md); the SDK's notice about Node 22 is noise here.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED:
      process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ?? 'true',
    POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED ?? 'true',
    POWERTOOLS_TRACE_ENABLED: process.env.POWERTOOLS_TRACE_ENABLED ?? 'false',
    ...(spec.quiet ? { POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN' } : {}),
    // The queues, retries and jobs run in-process (local/workers.ts) instead of on SQS and Scheduler.
    // LOCAL_SWEEP_INTERVAL_MS, when set, passes through with the rest of the environment.
    [MESSAGING_ENV.local]: '1',
    LOCAL_STAGE_PORT: String(spec.port),
    LOCAL_QUIET: spec.quiet ? '1' : '0',
    [METER_LOGS_ENV]: spec.meterLogs ? '1' : '0',
    [LOG_FORMAT_ENV]: spec.logFormat,
    [STAGE_SERVER_CHILD_ENV]: '1',
  };
}

/**
 * A stage server's output, line by line, prefixed with its stage: `[prod] GET /v1/me 200 4ms`. In
 * `json` format a JSON record gets a `stage` field instead, so every line stays one JSON document.
 */
function relayOutput(from: Readable | null, stream: 'stdout' | 'stderr', spec: StageServerSpec): void {
  if (!from) return;
  const lines = createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => {
    const record = spec.logFormat === 'json' ? jsonObject(line) : undefined;
    if (record) {
      spec.print(JSON.stringify({ stage: spec.stage, ...record }), stream);
    } else {
      spec.print(`[${spec.stage}] ${formatLogRecord(line, spec.logFormat)}`, stream);
    }
  });
}

function jsonObject(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}
