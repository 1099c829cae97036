import { parseArgs } from 'node:util';
import { WEBHOOK_TARGETS_ENV } from '#shared/platform/config.ts';
import { WEBHOOK_TARGET_POLICIES, type WebhookTargetPolicy } from '#shared/platform/url-guard.ts';
import { DEFAULT_CREDENTIALS_PATH } from './credentials.ts';
import { type LogFormat, logFormatFrom } from './log-lines.ts';

/** Where `npm start` keeps DynamoDB Local's data unless LOCAL_DB_PATH says otherwise (git-ignored). */
export const DEFAULT_DB_PATH = '.local/dynamodb';

export const START_USAGE = `Usage: npm start [-- <flags>]

Flags (each has an environment variable):
  --fresh                  delete the kept data and keys first, start from a new seed    LOCAL_FRESH=1
  --in-memory              keep nothing: data in memory, new keys                       LOCAL_DB_PATH=memory
  --webhook-targets T      webhook receivers: loopback (default; public ones and this    WEBHOOK_TARGETS=T
                           machine's, for npm run webhooks:listen), public (the deployed
                           rule) or private (private networks too)
  --quiet                  warnings and errors only                                      LOCAL_QUIET=1
  --log json               full JSON log records instead of one line each                LOCAL_LOG=json
  --help                   this text

Environment only: PORT (3000), SANDBOX_PORT (3001), DYNAMODB_PORT (any free port), LOCAL_DB_PATH
(${DEFAULT_DB_PATH}), LOCAL_CREDENTIALS_PATH (${DEFAULT_CREDENTIALS_PATH}), LOCAL_SWEEP_INTERVAL_MS,
LOCAL_FUNCTION_BUNDLES (run the bundles in this folder, e.g. dist/functions after npm run build,
instead of the TypeScript sources).`;

export interface StartOptions {
  help: boolean;
  /** Delete dbPath and the credentials file before starting. */
  fresh: boolean;
  /** undefined: in memory. */
  dbPath: string | undefined;
  credentialsPath: string;
  /** Which webhook receivers the stages deliver to; `loopback` unless asked otherwise. */
  webhookTargets: WebhookTargetPolicy;
  quiet: boolean;
  logFormat: LogFormat;
}

export class StartOptionsError extends Error {}

/**
 * `npm start`'s flags and environment, flags winning. Unknown flags are an error that names the
 * accepted ones (a typo in `--fresh` must not silently keep the data).
 *
 * @example
 * parseStartOptions(['--fresh'], {}); // { fresh: true, dbPath: '.local/dynamodb', … }
 */
export function parseStartOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  warn: (line: string) => void = () => {},
): StartOptions {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new StartOptionsError(`${(error as Error).message}\n\n${START_USAGE}`);
  }
  const logFlag = values.log;
  if (logFlag !== undefined && logFlag !== 'json' && logFlag !== 'lines') {
    throw new StartOptionsError(`--log takes "json" or "lines", got "${logFlag}"`);
  }
  const webhookTargets = values['webhook-targets'] ?? (env[WEBHOOK_TARGETS_ENV] || 'loopback');
  if (!isWebhookTargetPolicy(webhookTargets)) {
    throw new StartOptionsError(
      `--webhook-targets (${WEBHOOK_TARGETS_ENV}) takes ${WEBHOOK_TARGET_POLICIES.map((p) => `"${p}"`).join(', ')}, got "${webhookTargets}"`,
    );
  }
  const envDbPath = env.LOCAL_DB_PATH || undefined;
  const inMemory = values['in-memory'] === true || envDbPath === 'memory';
  return {
    help: values.help === true,
    fresh: values.fresh === true || env.LOCAL_FRESH === '1',
    dbPath: inMemory ? undefined : (envDbPath ?? DEFAULT_DB_PATH),
    credentialsPath: env.LOCAL_CREDENTIALS_PATH || DEFAULT_CREDENTIALS_PATH,
    webhookTargets,
    quiet: values.quiet === true || env.LOCAL_QUIET === '1',
    logFormat: logFlag === undefined ? logFormatFrom(env, warn) : (logFlag as LogFormat),
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      fresh: { type: 'boolean' },
      'in-memory': { type: 'boolean' },
      'webhook-targets': { type: 'string' },
      quiet: { type: 'boolean' },
      log: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function isWebhookTargetPolicy(value: string): value is WebhookTargetPolicy {
  return (WEBHOOK_TARGET_POLICIES as readonly string[]).includes(value);
}
