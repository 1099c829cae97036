import { mcpTools } from '../api/mcp-tools.ts';
import { MAX_DELIVERY_ATTEMPTS, RETRY_DELAYS_SECONDS } from '../domain/webhooks/retry-schedule.ts';
import { ERROR_REGISTRY, type ErrorCode } from '../platform/errors.ts';
import { type GuideRoute, readGuideRoutes } from './guide-routes.ts';

export interface GuideSettings {
  /** This stage's public base URL, e.g. `https://api.example.com` (the guide is served per stage). */
  baseUrl: string;
  stage: 'prod' | 'sandbox';
}

/**
 * Retrying helps only when the cause passes (spec §7: 503, 504 and `rate_limited`), plus a request
 * still in flight under the same Idempotency-Key. A 502 `routing_unreachable` or a 500 fails the
 * same way again.
 */
const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set(['rate_limited', 'idempotency_conflict']);

/** The webhook retry schedule in words, from the schedule itself. */
const DELIVERY_RETRIES = `a failed delivery is tried again up to ${MAX_DELIVERY_ATTEMPTS - 1} times over about ${
  Math.round(RETRY_DELAYS_SECONDS.reduce((sum, seconds) => sum + seconds, 0) / 360) / 10
} h (${MAX_DELIVERY_ATTEMPTS} attempts in all)`;

/** Whether a problem code is worth retrying (with backoff, honouring Retry-After). */
export function isRetryable(code: ErrorCode): boolean {
  const { status } = ERROR_REGISTRY[code];
  return status === 503 || status === 504 || RETRYABLE_CODES.has(code);
}

function operationsSection(routes: readonly GuideRoute[]): string[] {
  const byTag = new Map<string, GuideRoute[]>();
  for (const route of routes) {
    const tag = route.tags[0] ?? 'Other';
    byTag.set(tag, [...(byTag.get(tag) ?? []), route]);
  }
  const lines = ['## Operations', ''];
  for (const [tag, tagged] of byTag) {
    lines.push(`### ${tag}`, '');
    for (const route of tagged) {
      const who =
        route.access === 'anonymous'
          ? 'no key'
          : `${route.scope ? `scope ${route.scope}` : 'any key'}${route.access === 'partner' ? ', partner keys' : ''}`;
      const flags = route.idempotent ? ', Idempotency-Key required' : '';
      lines.push(`- \`${route.method} ${route.path}\`: ${route.summary} (${who}${flags})`);
    }
    lines.push('');
  }
  return lines;
}

function errorsSection(): string[] {
  const lines = [
    '## Errors',
    '',
    'Every 4xx/5xx is `application/problem+json`: `type`, `title`, `status`, `detail`, `code`, `hint`, `request_id`, and `errors` (field, code, message) on validation. Act on `code`, never on `detail`. Retry only the codes marked yes, with exponential backoff and jitter, honouring `Retry-After`; for POST /v1/routes, /v1/trips and /v1/fuelings resend the same Idempotency-Key.',
    '',
    '| code | status | retry | what to do |',
    '| --- | --- | --- | --- |',
  ];
  for (const [code, entry] of Object.entries(ERROR_REGISTRY) as [
    ErrorCode,
    (typeof ERROR_REGISTRY)[ErrorCode],
  ][]) {
    lines.push(`| ${code} | ${entry.status} | ${isRetryable(code) ? 'yes' : 'no'} | ${entry.hint} |`);
  }
  lines.push('');
  return lines;
}

function workflowsSection(base: string): string[] {
  const auth = '-H "Authorization: Bearer $KEY"';
  const json = '-H "Content-Type: application/json"';
  return [
    '## Workflows (one worked example each)',
    '',
    '### 1. Register a vehicle and stream its breadcrumbs',
    '```sh',
    `curl -X POST ${base}/v1/vehicles ${auth} ${json} -d '{"external_ref":"TRUCK-042","name":"Truck 42","tank_size_gallons":150,"estimated_mpg":6.5}'`,
    `curl -X POST ${base}/v1/locations ${auth} ${json} -d '{"locations":[{"external_ref":"TRUCK-042","latitude":35.4676,"longitude":-97.5164,"recorded_at":"2026-11-23T18:00:00.000000Z","speed_mph":62,"fuel_level_percent":48}]}'`,
    `curl ${base}/v1/vehicles/ext:TRUCK-042/location ${auth}`,
    '```',
    'A batch answers per item: a bad breadcrumb is rejected on its own, the rest are stored.',
    '',
    '### 2. Live fuel-stop guidance',
    '```sh',
    `curl -X POST ${base}/v1/vehicles/ext:TRUCK-042/guidance ${auth} ${json} -d '{"destination":{"latitude":32.7767,"longitude":-96.797}}'`,
    `curl ${base}/v1/vehicles/ext:TRUCK-042/guidance ${auth}   # phase, next stop, freshness`,
    `curl -X POST ${base}/v1/vehicles/ext:TRUCK-042/guidance/stops/gds_…/acknowledge ${auth}   # 204`,
    '```',
    'Guidance is recomputed from every breadcrumb; subscribe to `guidance.updated` instead of polling.',
    '',
    '### 3. Plan a trip with generated fuel stops (idempotent)',
    '```sh',
    `curl -X POST ${base}/v1/trips ${auth} ${json} -H "Idempotency-Key: 7d0c…" -d '{"external_ref":"TRUCK-042","origin":{"latitude":35.4676,"longitude":-97.5164},"destination":{"latitude":32.7767,"longitude":-96.797},"planned_start_at":"2026-11-24T14:00:00.000000Z","auto_optimize":true}'`,
    `curl -X POST ${base}/v1/trips/trip_…/start ${auth}`,
    '```',
    'On a timeout, resend the same body with the same Idempotency-Key: the first answer is replayed (`Idempotent-Replayed: true`).',
    '',
    '### 4. Receive webhooks and verify them',
    '```sh',
    `curl -X POST ${base}/v1/webhooks ${auth} ${json} -d '{"url":"https://example.com/hooks","event_types":["guidance.updated","fueling.matched"]}'   # secret whsec_… shown once`,
    `curl -X POST ${base}/v1/webhooks/whe_…/test ${auth}`,
    '```',
    'Verify `X-Service-Signature: t=<unix>,v1=<hex>`: HMAC-SHA256 keyed with the whole `whsec_…` secret over `<t>.<raw body>`; compare in constant time and reject a `t` older than 5 minutes. De-duplicate by `X-Service-Event-Id`; detect gaps by `sequence`. Answer 2xx within 5 s; ' +
      DELIVERY_RETRIES +
      '.',
    '',
    '### 5. Sandbox and its test clock (test keys, sandbox base URL)',
    '```sh',
    `curl $SANDBOX_BASE_URL/v1/sandbox/simulation ${auth}`,
    `curl -X POST $SANDBOX_BASE_URL/v1/sandbox/vehicles/ext:sim-1/scenario ${auth} ${json} -d '{"scenario":"offline"}'`,
    `curl -X POST $SANDBOX_BASE_URL/v1/sandbox/advance ${auth} ${json} -d '{"minutes":60}'`,
    `curl -X POST $SANDBOX_BASE_URL/v1/sandbox/reset ${auth}`,
    '```',
    '',
    '### 6. The same API as MCP tools',
    '```sh',
    `curl -X POST ${base}/v1/mcp ${auth} ${json} -H "Accept: application/json, text/event-stream" -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_vehicles","arguments":{"limit":5}}}'`,
    '```',
    '',
  ];
}

let tableRoutes: readonly GuideRoute[] | undefined;
/** The route table's operations, read once per process. */
function guideRoutes(): readonly GuideRoute[] {
  tableRoutes ??= readGuideRoutes();
  return tableRoutes;
}

/**
 * The guide for language models (`GET /llms.txt`, `GET /v1/llms.txt`): generated from the route
 * table, the error registry and the contract's rules, so it cannot fall behind the API.
 */
export function renderLlmsGuide(
  settings: GuideSettings,
  routes: readonly GuideRoute[] = guideRoutes(),
): string {
  const base = settings.baseUrl.replace(/\/$/, '');
  const toolCount = Object.keys(mcpTools).length;
  return [
    '# Fleet Fuel Guidance API',
    '',
    '> HTTP/JSON API for truck fleets: stream vehicle breadcrumbs with tank level, get live fuel-stop guidance, plan fuel-optimized routes and trips, query diesel stations and prices, record fuelings, report savings, receive signed webhooks, check integration health, and test against a simulated sandbox fleet.',
    '',
    '## Basics',
    '',
    `- Base URL: \`${base}\` (this is the ${settings.stage === 'sandbox' ? 'sandbox' : 'production'} stage). Production and the sandbox have separate base URLs, keys and data; \`/llms.txt\` and \`/v1/openapi.json\` on each describe that stage. Full contract: \`GET ${base}/v1/openapi.json\`; error registry: \`GET ${base}/v1/errors\`.`,
    '- Auth: `Authorization: Bearer <key>`. `svc_live_…` keys work on production, `svc_test_…` keys on the sandbox (a test key on production is 403 `sandbox_key_on_production`). Each operation needs the scope listed below.',
    '- Key kinds: a company key acts on its own fleet and sends no fleet header. A partner key manages many fleets and selects one per call with `SVC-Fleet: <fleet_id>` (400 `fleet_header_required` without it; 403 `fleet_scope_mismatch` for a fleet not granted). Partner-level calls (`/v1/fleets`) take no header.',
    '- Ids carry a type prefix and a 26-character ULID (`veh_01J…`, `trip_…`, `fleet_…`). Wherever a path takes a vehicle id, `ext:<external_ref>` works too (URL-encode the ref).',
    '- JSON is snake_case both ways; timestamps are UTC with six fractional digits (`2026-11-23T18:00:00.000000Z`); units are US customary: mph, gallons, miles; fuel levels are percent (0–100). Unknown body fields are 422.',
    '- Pagination: list calls take `cursor` and `limit` (default 25, max 100) and return `{ "data": [...], "next_cursor": "…" | null }`. A page may be short or empty while `next_cursor` is set: stop only when it is null. A bad cursor is 400 `invalid_cursor`.',
    '- Idempotency: `POST /v1/routes`, `/v1/trips` and `/v1/fuelings` require `Idempotency-Key` (≤ 64 chars). Same key and body replays the first answer; another body is 422 `idempotency_key_reuse`; while the first is running, 409 `idempotency_conflict`.',
    '- Actions with no payload (DELETE, arrive, depart, acknowledge, skip) answer 204 with an empty body.',
    '- Limits: a per-key rate limit per minute (`RateLimit-*` headers; 429 `rate_limited` with `Retry-After`) and monthly quotas per plan (429 `quota_exceeded` or `station_budget_exceeded`: no `Retry-After`, do not retry in a loop). `GET /v1/me` shows the plan and this month’s usage.',
    `- MCP: \`POST ${base}/v1/mcp\` is a Model Context Protocol server (Streamable HTTP, stateless, JSON responses) with the same key. ${toolCount} tools map one-to-one to the operations below; each carries readOnlyHint, destructiveHint and idempotentHint; a problem is a tool result with \`isError\` and the problem's code, detail and hint; an unknown tool is JSON-RPC error -32602. Partner keys pass \`fleet_id\`; idempotent tools take \`idempotency_key\`. The sandbox tools (reset, scenario, simulation, advance) appear for test keys on the sandbox.`,
    '- Sandbox: a company test key acts on a twin of the company with three simulated trucks (`ext:sim-1`…`sim-3`) and synthetic prices. The trucks move every simulated minute; `POST /v1/sandbox/advance` is a test clock that runs up to 1440 minutes now through the real pipeline. Sandbox webhooks carry `sandbox: true`.',
    '',
    ...workflowsSection(base),
    ...operationsSection(routes),
    ...errorsSection(),
  ].join('\n');
}
