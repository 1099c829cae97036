import { savingsMethodologyMarkdown } from '#shared/fuelings/domain/methodology.ts';
import { ERROR_REGISTRY, type ErrorCode } from '#shared/platform/errors.ts';
import { type GuideFacts, type GuideRoute, readGuideFacts, readGuideRoutes } from './guide-routes.ts';

export interface GuideSettings {
  /** This stage's public base URL, e.g. `https://api.example.com` (the guide is served per stage). */
  baseUrl: string;
  stage: 'prod' | 'sandbox';
}

/**
 * Retrying helps only when the cause passes (503, 504 and `rate_limited`: docs/typescript-client.md), plus a request
 * still in flight under the same Idempotency-Key. A 502 `routing_unreachable` or a 500 fails the
 * same way again.
 */
const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set(['rate_limited', 'idempotency_conflict']);

/** Whether a problem code is worth retrying (with backoff, honouring Retry-After). */
export function isRetryable(code: ErrorCode): boolean {
  const { status } = ERROR_REGISTRY[code];
  return status === 503 || status === 504 || RETRYABLE_CODES.has(code);
}

/** How an operation is offered over MCP on this stage: its tool, or that it is none. */
function toolNote(route: GuideRoute, facts: GuideFacts, stage: GuideSettings['stage']): string {
  const here = facts.tools[stage].find((tool) => tool.operationId === route.operationId);
  if (here) return `tool \`${here.name}\``;
  const elsewhere = facts.tools.sandbox.find((tool) => tool.operationId === route.operationId);
  if (elsewhere) return `tool \`${elsewhere.name}\` on the sandbox stage`;
  return 'not a tool';
}

function operationsSection(
  routes: readonly GuideRoute[],
  facts: GuideFacts,
  stage: GuideSettings['stage'],
): string[] {
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
      lines.push(
        `- \`${route.method} ${route.path}\`: ${route.summary} (${who}${flags}; ${toolNote(route, facts, stage)})`,
      );
    }
    lines.push('');
  }
  return lines;
}

/** The operations that are not MCP tools, each with why: the guide claims no tool for them. */
function notToolsSection(routes: readonly GuideRoute[], facts: GuideFacts): string[] {
  return [
    '## Operations that are not MCP tools',
    '',
    ...routes.flatMap((route) => {
      const why = facts.notTools[route.operationId];
      return why ? [`- \`${route.method} ${route.path}\`: ${why}`] : [];
    }),
    '',
  ];
}

function errorsSection(routes: readonly GuideRoute[], facts: GuideFacts): string[] {
  const lines = [
    '## Errors',
    '',
    `Every 4xx/5xx is \`application/problem+json\`: \`type\`, \`title\`, \`status\`, \`detail\`, \`code\`, \`hint\`, \`request_id\`, and \`errors\` (${facts.fieldErrorMembers.join(', ')}) on validation. Act on \`code\`, never on \`detail\`. Retry only the codes marked yes, with exponential backoff and jitter, honouring \`Retry-After\`; for ${idempotentOperations(routes)} resend the same Idempotency-Key.`,
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

function workflowsSection(base: string, facts: GuideFacts): string[] {
  const id = (kind: keyof GuideFacts['prefixOf']) => `${facts.prefixOf[kind]}_…`;
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
    'Routes, trips and guidance are planned for the truck: `truck_profile` on the vehicle (`height_inches`, `width_inches`, `length_feet`, `gross_weight_lbs`, `axle_count`, `hazardous_cargo`), each member unset falling back to the fleet’s (`PATCH /v1/fleet`), then the standard 13 ft 6 in, 80,000 lb, 5-axle tractor-trailer; a route says what it used in `truck_profile` and `truck_profile_sources`.',
    '',
    '### 2. Live fuel-stop guidance',
    '```sh',
    `curl -X POST ${base}/v1/vehicles/ext:TRUCK-042/guidance ${auth} ${json} -d '{"destination":{"latitude":32.7767,"longitude":-96.797}}'`,
    `curl ${base}/v1/vehicles/ext:TRUCK-042/guidance ${auth}   # phase, next stop, freshness`,
    `curl -X POST ${base}/v1/vehicles/ext:TRUCK-042/guidance/stops/${id('guidanceStop')}/acknowledge ${auth}   # 204`,
    '```',
    'Guidance is recomputed from every breadcrumb; subscribe to `guidance.updated` instead of polling.',
    "Plans keep to the fleet's fuel card program (`fuel_program` on `PATCH /v1/fleet`): a `required` one never plans a refused chain, and when only it stands in the way the plan status (`plan.status` of a route or trip, guidance `plan_status`) is `no_accepted_station_in_range` with `fuel_program_shortfall` (the next accepted stop, miles and gallons short) and only the accepted stops within reach before the uncovered stretch (none when no accepted stop is); a `preferred` one's penalty is in an off-program stop's reason, never its prices. Each stop has `in_fuel_program`.",
    '',
    '### 3. Plan a trip with generated fuel stops (idempotent)',
    '```sh',
    `curl -X POST ${base}/v1/trips ${auth} ${json} -H "Idempotency-Key: 7d0c…" -d '{"external_ref":"TRUCK-042","origin":{"latitude":35.4676,"longitude":-97.5164},"destination":{"latitude":32.7767,"longitude":-96.797},"planned_start_at":"2026-11-24T14:00:00.000000Z","auto_optimize":true}'`,
    `curl -X POST ${base}/v1/trips/${id('trip')}/start ${auth}`,
    '```',
    `On a timeout, resend the same body with the same Idempotency-Key: the first answer is replayed (\`${facts.idempotentReplayedHeader}: true\`).`,
    '',
    '### 4. Receive webhooks and verify them',
    '```sh',
    `curl -X POST ${base}/v1/webhooks ${auth} ${json} -d '{"url":"https://example.com/hooks","event_types":["guidance.updated","fueling.matched"]}'   # secret ${facts.webhookSecretPrefix}… shown once`,
    `curl -X POST ${base}/v1/webhooks/${id('webhookEndpoint')}/test ${auth}`,
    '```',
    `Verify \`X-Service-Signature: t=<unix>,v1=<hex>\`: HMAC-SHA256 keyed with the whole \`${facts.webhookSecretPrefix}…\` secret over \`<t>.<raw body>\`; compare in constant time and reject a \`t\` older than ${facts.signatureToleranceSeconds / 60} minutes. De-duplicate by \`X-Service-Event-Id\`; detect gaps by \`sequence\`. Answer 2xx within ${facts.webhookTimeoutSeconds} s; a failed delivery is tried again up to ${facts.deliveryAttempts - 1} times over about ${facts.deliveryRetryHours} h (${facts.deliveryAttempts} attempts in all). The \`webhooks\` section of \`/v1/openapi.json\` describes each event type's envelope and \`data\`, member by member.`,
    '',
    '### 5. Sandbox and its test clock (test keys, sandbox base URL)',
    '```sh',
    `curl $SANDBOX_BASE_URL/v1/sandbox/simulation ${auth}`,
    `curl -X POST $SANDBOX_BASE_URL/v1/sandbox/vehicles/ext:${facts.simulatedTrucks[0]}/scenario ${auth} ${json} -d '{"scenario":"offline"}'`,
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

let sourceFacts: GuideFacts | undefined;
/** The facts the guide states, read once per process. */
function guideFacts(): GuideFacts {
  sourceFacts ??= readGuideFacts();
  return sourceFacts;
}

/** `A`, `A and B`, `A, B and C`. */
const listed = (items: readonly string[]) =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** The operations that require an Idempotency-Key, as `POST /v1/routes`, …. */
function idempotentOperations(routes: readonly GuideRoute[]): string {
  return listed(
    routes.filter((route) => route.idempotent).map((route) => `\`${route.method} ${route.path}\``),
  );
}

/** What answers 204 with no body: DELETE, and the POST actions named by their last path segment. */
function noContentActions(routes: readonly GuideRoute[]): string {
  const actions = routes
    .filter((route) => route.statuses.length > 0 && route.statuses.every((status) => status === 204))
    .map((route) => (route.method === 'DELETE' ? 'DELETE' : (route.path.split('/').at(-1) ?? route.path)));
  return [...new Set(actions)].join(', ');
}

function mcpBasics(base: string, stage: GuideSettings['stage'], facts: GuideFacts): string {
  const tools = facts.tools[stage];
  const keyPrefix = facts.keyPrefixes[stage === 'sandbox' ? 'test' : 'live'];
  const simulator =
    stage === 'sandbox'
      ? `They include the simulator's ${facts.sandboxTools.length} tools (${facts.sandboxTools.join(', ')}), which only the sandbox stage lists.`
      : `The simulator's ${facts.sandboxTools.length} tools (${facts.sandboxTools.join(', ')}) are listed only on the sandbox stage, to test keys.`;
  return (
    `- MCP: \`POST ${base}/v1/mcp\` is a Model Context Protocol server (Streamable HTTP, stateless, JSON responses) with the same key. ` +
    `On this stage \`tools/list\` shows ${tools.length} tools (to \`${keyPrefix}…\` keys), one per operation below marked with its tool; ` +
    `the ${Object.keys(facts.notTools).length} operations marked "not a tool" are HTTP only, for the reasons under "Operations that are not MCP tools". ${simulator} ` +
    "Each tool carries readOnlyHint, destructiveHint and idempotentHint; a problem is a tool result with `isError` and the problem's code, detail and hint; " +
    `a tool tools/list does not name is JSON-RPC error ${facts.unknownToolErrorCode}. Partner keys pass \`${facts.toolArguments.fleet}\`; idempotent tools take \`${facts.toolArguments.idempotency}\`.`
  );
}

/**
 * The guide for language models (`GET /llms.txt`, `GET /v1/llms.txt`): generated from the route
 * table, the error registry, the MCP tools this stage lists and the constants behind every number
 * and prefix it states (guide-routes.ts), so it cannot fall behind the API.
 */
export function renderLlmsGuide(
  settings: GuideSettings,
  routes: readonly GuideRoute[] = guideRoutes(),
  facts: GuideFacts = guideFacts(),
): string {
  const base = settings.baseUrl.replace(/\/$/, '');
  const partnerPaths = [
    ...new Set(routes.filter((route) => route.access === 'partner').map((route) => route.path)),
  ];
  const ids = facts.idPrefixes.map(({ prefix, names }) => `\`${prefix}_\` ${names}`).join(', ');
  const [firstTruck, ...otherTrucks] = facts.simulatedTrucks;
  return [
    '# Fleet Fuel Guidance API',
    '',
    '> HTTP/JSON API for truck fleets: stream vehicle breadcrumbs with tank level, get live fuel-stop guidance, plan fuel-optimized routes and trips, query diesel stations and prices, record fuelings, report savings, receive signed webhooks, check integration health, and test against a simulated sandbox fleet.',
    '',
    '## Basics',
    '',
    `- Base URL: \`${base}\` (this is the ${settings.stage === 'sandbox' ? 'sandbox' : 'production'} stage). Production and the sandbox have separate base URLs, keys and data; \`/llms.txt\` and \`/v1/openapi.json\` on each describe that stage. Full contract: \`GET ${base}/v1/openapi.json\`; error registry: \`GET ${base}/v1/errors\`.`,
    `- Auth: \`Authorization: Bearer <key>\`. \`${facts.keyPrefixes.live}…\` keys work on production, \`${facts.keyPrefixes.test}…\` keys on the sandbox (a test key on production is 403 \`sandbox_key_on_production\`). Each operation needs the scope listed below.`,
    `- Key kinds: a company key acts on its own fleet and sends no fleet header. A partner key manages many fleets and selects one per call with \`${facts.fleetHeader}: <fleet_id>\` (400 \`fleet_header_required\` without it; 403 \`fleet_scope_mismatch\` for a fleet not granted). Partner-level calls (${listed(partnerPaths.map((path) => `\`${path}\``))}) take no header.`,
    `- Ids carry a type prefix and a 26-character ULID (\`${facts.idExample}\`): ${ids}. A malformed id or a wrong prefix is 400 \`invalid_public_id\`. Wherever a path takes a vehicle id, \`ext:<external_ref>\` works too (URL-encode the ref).`,
    '- JSON is snake_case both ways; timestamps are UTC with six fractional digits (`2026-11-23T18:00:00.000000Z`); units are US customary: mph, gallons, miles; fuel levels are percent (0–100). Unknown body fields are 422.',
    `- Pagination: list calls take \`cursor\` and \`limit\` (default ${facts.pageLimit.default}, max ${facts.pageLimit.max}) and return \`{ "data": [...], "next_cursor": "…" | null }\`. A page may be short or empty while \`next_cursor\` is set: stop only when it is null. A bad cursor is 400 \`invalid_cursor\`.`,
    `- Idempotency: ${idempotentOperations(routes)} require \`Idempotency-Key\` (≤ ${facts.idempotencyKeyMaxLength} chars). Same key and body replays the first answer; another body is 422 \`idempotency_key_reuse\`; while the first is running, 409 \`idempotency_conflict\`.`,
    `- Actions with no payload (${noContentActions(routes)}) answer 204 with an empty body.`,
    `- Limits: a per-key rate limit per ${facts.rateWindowSeconds}-second window (\`RateLimit-*\` headers; 429 \`rate_limited\` with \`Retry-After\`) and monthly quotas per plan (429 \`quota_exceeded\` or \`station_budget_exceeded\`: no \`Retry-After\`, do not retry in a loop). \`GET /v1/me\` shows the plan and this month’s usage.`,
    mcpBasics(base, settings.stage, facts),
    `- Sandbox: a company test key acts on a twin of the company with ${facts.simulatedTrucks.length} simulated trucks (\`ext:${firstTruck}\`${otherTrucks.length > 0 ? `…\`${otherTrucks.at(-1)}\`` : ''}) and synthetic prices. The trucks move every simulated minute; \`POST /v1/sandbox/advance\` is a test clock that runs up to ${facts.maxAdvanceMinutes} minutes now through the real pipeline. Sandbox webhooks carry \`sandbox: true\`.`,
    '',
    ...workflowsSection(base, facts),
    ...operationsSection(routes, facts, settings.stage),
    ...notToolsSection(routes, facts),
    ...errorsSection(routes, facts),
    '',
    ...savingsMethodologyMarkdown(),
  ].join('\n');
}

/**
 * The savings methodology alone (`?section=savings-methodology`): what the savings report's
 * `methodology` link opens, so a fleet reads it first rather than at the end of the whole guide.
 */
export function renderMethodology(settings: GuideSettings): string {
  const base = settings.baseUrl.replace(/\/$/, '');
  return [
    '# Fleet Fuel Guidance API: savings methodology',
    '',
    `> The rules behind \`GET ${base}/v1/reports/savings\`, route and trip savings. The whole guide: \`GET ${base}/v1/llms.txt\`.`,
    '',
    ...savingsMethodologyMarkdown(),
  ].join('\n');
}
