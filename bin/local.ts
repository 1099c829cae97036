/**
 * `npm start`: the whole API on this machine, no cloud account. DynamoDB Local, one table per
 * stage, the demo seed, the prod stage on PORT (3000) and the sandbox stage on SANDBOX_PORT (3001),
 * and `.local/credentials.json` to call them with. Ctrl-C stops everything.
 *
 * Environment: PORT, SANDBOX_PORT (0 = any free port), DYNAMODB_PORT (default: any free port),
 * LOCAL_DB_PATH (persist DynamoDB data there; default in memory), LOCAL_CREDENTIALS_PATH,
 * LOCAL_QUIET=1 (no request log lines).
 */
import { DEFAULT_CREDENTIALS_PATH } from '../local/credentials.ts';
import { loadOrCreateCursorSigningKey } from '../local/cursor-key.ts';
import { assertJava, JavaMissingError } from '../local/java.ts';
import { type LocalStack, readyLine, startLocalStack } from '../local/stack.ts';

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

// Node 20 is what these machines run (DESIGN.md); the SDK's notice about Node 22 is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

try {
  assertJava();
} catch (error) {
  if (!(error instanceof JavaMissingError)) throw error;
  console.error(error.message);
  process.exit(1);
}

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
    port: portFromEnv('PORT', 3000),
    sandboxPort: portFromEnv('SANDBOX_PORT', 3001),
    dynamoDbPort: portFromEnv('DYNAMODB_PORT', undefined),
    ...(process.env.LOCAL_DB_PATH ? { dbPath: process.env.LOCAL_DB_PATH } : {}),
    credentialsPath: process.env.LOCAL_CREDENTIALS_PATH || DEFAULT_CREDENTIALS_PATH,
    cursorSigningKey: loadOrCreateCursorSigningKey(),
    quiet: process.env.LOCAL_QUIET === '1',
    onUnexpectedExit: (message) => {
      console.error(message);
      void shutdown(1);
    },
  });
} catch (error) {
  console.error(`Local stack failed to start: ${error instanceof Error ? error.message : String(error)}`);
  await shutdown(1);
}

if (stack && !stopping) console.log(readyLine(stack));
