import { relative } from 'node:path';
import type { WebhookTargetPolicy } from '#shared/platform/url-guard.ts';
import type { LocalCredentials } from './credentials.ts';
import type { SeedOutcome } from './demo-seed.ts';

/**
 * What `npm start` prints: one line per start-up step as it completes, then the ready banner
 * (the two base URLs, which key is which, one request to paste, how to receive webhooks).
 * Pure functions of what the stack reports, so the wording is tested without starting anything.
 */

export interface CatalogSummary {
  stage: 'prod' | 'sandbox';
  source: 'synthetic' | 'imported';
  count: number;
  /** `47 states` for the synthetic catalog; the import's source for an imported one. */
  detail: string;
}

export type StartupEvent =
  | { step: 'java'; major: number }
  | { step: 'dynamodb'; endpoint: string; dbPath: string | undefined; ms: number }
  | { step: 'tables'; created: string[]; existing: string[]; ms: number }
  | { step: 'catalog'; catalogs: CatalogSummary[]; ms: number }
  | { step: 'seed'; outcome: SeedOutcome; ms: number }
  | {
      step: 'servers';
      ports: { prod: number; sandbox: number };
      /** The bundles folder the stage servers run; undefined: the TypeScript sources. */
      functionBundles?: string | undefined;
      ms: number;
    };

/**
 * One progress line.
 *
 * @example
 * progressLine({ step: 'java', major: 17 }); // '✓ Java 17 found'
 */
export function progressLine(event: StartupEvent, cwd = process.cwd()): string {
  switch (event.step) {
    case 'java':
      return `✓ Java ${event.major} found`;
    case 'dynamodb': {
      const where = event.dbPath ? `data in ${shortPath(event.dbPath, cwd)}` : 'in memory, nothing kept';
      return `✓ DynamoDB Local started on ${event.endpoint} (${where}) ${seconds(event.ms)}`;
    }
    case 'tables': {
      const parts = [
        ...(event.created.length ? [`created ${event.created.join(', ')}`] : []),
        ...(event.existing.length ? [`kept ${event.existing.join(', ')}`] : []),
      ];
      return `✓ Tables ready: ${parts.join('; ')} ${seconds(event.ms)}`;
    }
    case 'catalog':
      return `✓ Station catalog: ${event.catalogs.map(describeCatalog).join('; ')} ${seconds(event.ms)}`;
    case 'seed': {
      const world = event.outcome.world === 'created' ? 'demo fleets and partner created' : 'demo data kept';
      const keys =
        event.outcome.keys === 'reused'
          ? 'keys reused from the last run'
          : 'new keys issued (the old ones no longer work)';
      return `✓ Seed: ${world}; ${keys} ${seconds(event.ms)}`;
    }
    case 'servers':
      return `✓ Stage servers listening on ports ${event.ports.prod} (prod) and ${event.ports.sandbox} (sandbox), running ${
        event.functionBundles
          ? `the bundles in ${shortPath(event.functionBundles, cwd)}`
          : 'the TypeScript sources'
      } ${seconds(event.ms)}`;
  }
}

function describeCatalog(catalog: CatalogSummary): string {
  const what =
    catalog.source === 'synthetic'
      ? `${catalog.count} synthetic stations in ${catalog.detail}`
      : `${catalog.count} imported stations (${catalog.detail})`;
  return `${catalog.stage} ${what}`;
}

export interface BannerInput {
  credentials: LocalCredentials;
  credentialsPath: string;
  dbPath: string | undefined;
  totalMs: number;
  /** Which webhook receivers the stages deliver to (`--webhook-targets`). */
  webhookTargets: WebhookTargetPolicy;
  quiet: boolean;
  logFormat: 'lines' | 'json';
}

/** The keys of the credentials file, what each is for, in the order a newcomer needs them. */
const KEY_ROLES: { name: keyof LocalCredentials['keys']; role: string }[] = [
  { name: 'company_live', role: 'prod, company key, every company scope (start here)' },
  { name: 'company_readonly', role: 'prod, company key, guidance:read only' },
  { name: 'company_test', role: 'sandbox, the same company on the sandbox stage' },
  { name: 'partner_live', role: 'prod, partner key: fleet calls send the header SVC-Fleet: <fleet id>' },
  { name: 'company_revoked', role: 'prod, revoked: shows the 401 key_revoked' },
  { name: 'company_suspended', role: 'prod, suspended: shows the 403 answer' },
];

/** How to receive webhooks, under each policy. */
const WEBHOOK_LINES: Record<WebhookTargetPolicy, string[]> = {
  loopback: [
    '  Webhooks  npm run webhooks:listen   (in another terminal: registers a loopback receiver with',
    '            the company key, verifies each signature, prints one line per event)',
  ],
  public: [
    '  Webhooks  public HTTPS receivers only (--webhook-targets public, the deployed rule); plain',
    '            npm start also accepts receivers on this machine, such as npm run webhooks:listen',
  ],
  private: [
    '  Webhooks  npm run webhooks:listen   (in another terminal); receivers on private networks are',
    '            accepted too (--webhook-targets private)',
  ],
};

/**
 * The ready banner. The request works as pasted (no jq, no variables).
 *
 * @example
 * console.log(readyBanner({ credentials, credentialsPath, dbPath, totalMs: 7900, webhookTargets: 'loopback', quiet: false, logFormat: 'lines' }));
 */
export function readyBanner(input: BannerInput, cwd = process.cwd()): string {
  const { credentials } = input;
  const keyWidth = Math.max(...KEY_ROLES.map(({ name }) => name.length));
  const partnerFleet = credentials.fleets.partner_granted[0];
  const keyLines = KEY_ROLES.map(({ name, role }) => {
    const shown = name === 'partner_live' && partnerFleet ? role.replace('<fleet id>', partnerFleet) : role;
    return `    ${name.padEnd(keyWidth)}  ${credentials.keys[name]}  ${shown}`;
  });
  const webhookLines = WEBHOOK_LINES[input.webhookTargets];
  const dataLine = input.dbPath
    ? `  Data      kept in ${shortPath(input.dbPath, cwd)} across restarts (npm start -- --fresh starts over)`
    : '  Data      in memory: gone when this stops';
  const logLine = input.quiet
    ? '  Logs      quiet: warnings and errors only'
    : input.logFormat === 'json'
      ? '  Logs      full JSON records (LOCAL_LOG=json)'
      : '  Logs      one line per request and per worker cycle; LOCAL_LOG=json for full records, LOCAL_QUIET=1 for warnings only';
  return [
    '',
    `Fleet Fuel Guidance local stack ready (${(input.totalMs / 1000).toFixed(1)} s)`,
    '',
    `  prod      ${credentials.base_url}   (svc_live_ keys)`,
    `  sandbox   ${credentials.sandbox_base_url}   (svc_test_ keys)`,
    '',
    `  Keys (also in ${shortPath(input.credentialsPath, cwd)}):`,
    ...keyLines,
    `    ${'operator_token'.padEnd(keyWidth)}  ${credentials.operator_token}  operator token of the local stack`,
    '',
    '  Try it:',
    `    curl -s ${credentials.base_url}/v1/me -H "Authorization: Bearer ${credentials.keys.company_live}"`,
    '',
    `  Map       ${credentials.sandbox_base_url}/sandbox   (the sandbox fleet live; enter the company_test key)`,
    ...webhookLines,
    dataLine,
    logLine,
    '  Stop      Ctrl-C',
    '',
  ].join('\n');
}

function seconds(ms: number): string {
  return `(${(ms / 1000).toFixed(1)} s)`;
}

/** A path relative to the working directory when it is inside it, else absolute. */
function shortPath(path: string, cwd: string): string {
  const fromHere = relative(cwd, path);
  return fromHere && !fromHere.startsWith('..') ? fromHere : path;
}
