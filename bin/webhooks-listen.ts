/**
 * `npm run webhooks:listen`: receive the local stack's webhooks on this machine. Starts a loopback
 * receiver, registers it as a webhook endpoint of the demo company (the company key of
 * `.local/credentials.json`), verifies every delivery's signature with webhooks-receiver/index.ts
 * and prints one line per event. Ctrl-C deletes the endpoint again (`--keep` leaves it).
 *
 * Works with the stack as `npm start` starts it, which accepts receivers on this machine (deployed
 * stages never do). docs/local-stack.md has the details.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_CREDENTIALS_PATH, type LocalCredentials, readCredentials } from '#local/credentials.ts';
import { startWebhookListener } from '#local/webhook-listener.ts';

const USAGE = `Usage: npm run webhooks:listen [-- <flags>]

  --sandbox          listen to the sandbox stage (company_test key) instead of prod (company_live)
  --events a,b       event types to subscribe to (default: all, "*")
  --port N           port of the receiver (default: any free port)
  --keep             leave the endpoint registered on exit (default: delete it)
  --print-bodies     print every verified body in full too
  --help

Reads LOCAL_CREDENTIALS_PATH (default ${DEFAULT_CREDENTIALS_PATH}).`;

/** Marks the endpoints this command registers, so a later run can delete those of a crashed one. */
const DESCRIPTION_PREFIX = 'npm run webhooks:listen';

let flags: ReturnType<typeof parse>['values'];
try {
  flags = parse().values;
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (flags.help) {
  console.log(USAGE);
  process.exit(0);
}

const credentialsPath = process.env.LOCAL_CREDENTIALS_PATH || DEFAULT_CREDENTIALS_PATH;
let credentials: LocalCredentials;
try {
  credentials = readCredentials(credentialsPath);
} catch (error) {
  console.error(`${(error as Error).message}\nStart the local stack first: npm start`);
  process.exit(1);
}
const stage = flags.sandbox ? 'sandbox' : 'prod';
const baseUrl = stage === 'sandbox' ? credentials.sandbox_base_url : credentials.base_url;
const key = stage === 'sandbox' ? credentials.keys.company_test : credentials.keys.company_live;
const port = Number(flags.port ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be a port number between 0 and 65535, got "${flags.port}"`);
  process.exit(2);
}
const eventTypes = flags.events ? flags.events.split(',').map((type) => type.trim()) : ['*'];

interface Answer {
  status: number;
  json: {
    id?: string;
    secret?: string;
    detail?: string;
    hint?: string;
    data?: { id: string; description: string | null }[];
    next_cursor?: string | null;
  };
}

async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new Error(
      `the ${stage} stage at ${baseUrl} does not answer (${(error as Error).message}); is npm start running?`,
    );
  }
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Answer['json']) : {} };
}

/** Endpoints left by a listener that is gone (killed, crashed): their receiver no longer exists. */
async function deleteStaleEndpoints(): Promise<void> {
  const stale: string[] = [];
  let cursor: string | null | undefined;
  do {
    const page = `/v1/webhooks?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const { status, json } = await call('GET', page);
    if (status !== 200) return;
    for (const endpoint of json.data ?? []) {
      const pid = new RegExp(`^${DESCRIPTION_PREFIX} \\(pid (\\d+)\\)`).exec(endpoint.description ?? '')?.[1];
      if (pid && !isRunning(Number(pid))) stale.push(endpoint.id);
    }
    cursor = json.next_cursor;
  } while (cursor);
  // Deleted after listing, so no page shifts under the cursor.
  for (const id of stale) await call('DELETE', `/v1/webhooks/${id}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let secrets: string[] = [];
const listener = await startWebhookListener({
  port,
  secrets: () => secrets,
  print: (line) => console.log(line),
  printBodies: flags['print-bodies'] === true,
});

let endpointId: string | undefined;
let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    if (endpointId && !flags.keep) {
      const { status } = await call('DELETE', `/v1/webhooks/${endpointId}`).catch(() => ({ status: 0 }));
      console.log(
        status === 204 ? `Deleted endpoint ${endpointId}` : `Could not delete endpoint ${endpointId}`,
      );
    } else if (endpointId) {
      console.log(
        `Kept endpoint ${endpointId} (--keep); its deliveries fail until a receiver listens on ${listener.url}`,
      );
    }
    await listener.close();
  }
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  await deleteStaleEndpoints();
  const created = await call('POST', '/v1/webhooks', {
    url: listener.url,
    event_types: eventTypes,
    description: `${DESCRIPTION_PREFIX} (pid ${process.pid})`,
  });
  if (created.status !== 201) {
    const { detail, hint } = created.json;
    console.error(`The ${stage} stage refused the endpoint (${created.status}): ${detail ?? 'no detail'}`);
    if (hint) console.error(`Hint: ${hint}`);
    await stop(1);
  }
  endpointId = created.json.id;
  secrets = created.json.secret ? [created.json.secret] : [];
  console.log(
    `Listening on ${listener.url} as endpoint ${endpointId} of the demo company (${stage} stage, ` +
      `events: ${eventTypes.join(', ')}); every signature is checked with webhooks-receiver/index.ts.`,
  );
  console.log(
    `Secret ${secrets[0]}. Try: POST ${baseUrl}/v1/webhooks/${endpointId}/test. Ctrl-C stops and deletes the endpoint.`,
  );
} catch (error) {
  console.error((error as Error).message);
  await stop(1);
}

function parse() {
  return parseArgs({
    strict: true,
    allowPositionals: false,
    options: {
      sandbox: { type: 'boolean' },
      events: { type: 'string' },
      port: { type: 'string' },
      keep: { type: 'boolean' },
      'print-bodies': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
