/**
 * `npm start`: the whole API on this machine, no cloud account. DynamoDB Local, one table per
 * stage, the demo seed, the prod stage on PORT (3000) and the sandbox stage on SANDBOX_PORT (3001),
 * and `.local/credentials.json` to call them with. Data and keys are kept in `.local/` across
 * restarts; `npm start -- --fresh` starts over. Ctrl-C stops everything.
 *
 * Flags and environment: `npm start -- --help` (local/start-options.ts), docs/local-stack.md.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadOrCreateCursorSigningKey } from '#local/cursor-key.ts';
import { DYNAMODB_LOCAL_DB_FILE } from '#local/dynamodb-local.ts';
import { assertPortFree } from '#local/free-port.ts';
import { assertJava, JavaMissingError } from '#local/java.ts';
import { type LocalStack, startLocalStack } from '#local/stack.ts';
import {
  parseStartOptions,
  START_USAGE,
  type StartOptions,
  StartOptionsError,
} from '#local/start-options.ts';
import { progressLine, readyBanner } from '#local/startup-report.ts';
import { WEBHOOK_TARGETS_ENV } from '#shared/platform/config.ts';

function portFromEnv(name: string, fallback: number | undefined): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`${name} must be a port number between 0 and 65535, got "${raw}"`);
    process.exit(1);
  }
  return port;
}

// Node 20 is what these machines run; the SDK's notice about Node 22 is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

let options: StartOptions;
try {
  options = parseStartOptions(process.argv.slice(2), process.env, (line) => console.error(line));
} catch (error) {
  if (!(error instanceof StartOptionsError)) throw error;
  console.error(error.message);
  process.exit(2);
}
if (options.help) {
  console.log(START_USAGE);
  process.exit(0);
}

try {
  console.log(progressLine({ step: 'java', major: assertJava() }));
} catch (error) {
  if (!(error instanceof JavaMissingError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const ports = {
  port: portFromEnv('PORT', 3000),
  sandboxPort: portFromEnv('SANDBOX_PORT', 3001),
  dynamoDbPort: portFromEnv('DYNAMODB_PORT', undefined),
};

if (options.fresh) {
  // A stack already running on these ports is using the data: refuse before deleting anything.
  try {
    for (const port of [ports.port, ports.sandboxPort]) if (port) await assertPortFree(port);
  } catch (error) {
    console.error(`Not starting fresh: ${(error as Error).message}. Stop the running stack first.`);
    process.exit(1);
  }
  // The data and the keys that open it go together; the cursor signing key may stay. Only DynamoDB
  // Local's own file goes: LOCAL_DB_PATH may point at a folder that holds anything else.
  const dbFile = options.dbPath ? join(options.dbPath, DYNAMODB_LOCAL_DB_FILE) : undefined;
  if (dbFile) rmSync(dbFile, { force: true });
  rmSync(options.credentialsPath, { force: true });
  console.log(`✓ Fresh start: removed ${dbFile ? `${dbFile} and ` : ''}${options.credentialsPath}`);
}
// The stage servers inherit the environment: this is how the flag reaches the webhook URL check.
process.env[WEBHOOK_TARGETS_ENV] = options.webhookTargets;

let stack: LocalStack | undefined;
let stopping = false;

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await stack?.stop();
  }
  process.exit(code);
}

process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
process.on('SIGHUP', () => void shutdown(0));

try {
  stack = await startLocalStack({
    ...ports,
    ...(options.dbPath ? { dbPath: options.dbPath } : {}),
    credentialsPath: options.credentialsPath,
    cursorSigningKey: loadOrCreateCursorSigningKey(),
    quiet: options.quiet,
    logFormat: options.logFormat,
    onProgress: (event) => console.log(progressLine(event)),
    onUnexpectedExit: (message) => {
      console.error(message);
      void shutdown(1);
    },
  });
} catch (error) {
  console.error(`Local stack failed to start: ${error instanceof Error ? error.message : String(error)}`);
  await shutdown(1);
}

if (stack && !stopping) {
  console.log(
    readyBanner({
      credentials: stack.credentials,
      credentialsPath: stack.credentialsPath,
      dbPath: stack.dbPath,
      totalMs: stack.timings.total,
      webhookTargets: options.webhookTargets,
      quiet: options.quiet,
      logFormat: options.logFormat,
    }),
  );
}
