import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { hiddenFromMcp } from '#shared/agents/api/mcp-tools.ts';
import { isRetryable, renderLlmsGuide, renderMethodology } from '#shared/agents/llms/guide.ts';
import { type GuideRoute, readGuideFacts, readGuideRoutes } from '#shared/agents/llms/guide-routes.ts';
import { readListedTools } from '#shared/agents/mcp/listed-tools.ts';
import { handleMcpRequest } from '#shared/agents/mcp/server.ts';
import { SANDBOX_TOOL_NAMES } from '#shared/agents/mcp/visibility.ts';
import { fieldErrorSchema, PAGE_LIMIT } from '#shared/api/common-schemas.ts';
import { routeList } from '#shared/api/route-table.ts';
import { EVENT_CATALOG } from '#shared/events/domain/events.ts';
import { DEFAULT_FUEL_TAX_TREATMENT } from '#shared/fuel-tax/domain/treatment.ts';
import { FUELING_POLICY } from '#shared/fuelings/domain/policy.ts';
import { ID_PREFIXES } from '#shared/kernel/ids.ts';
import { KEY_PREFIX, type KeyMode } from '#shared/keys/domain/api-key.ts';
import type { Stage } from '#shared/platform/config.ts';
import { ApiError, ERROR_REGISTRY } from '#shared/platform/errors.ts';
import { authenticate } from '#shared/platform/http/authenticate.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { METHODOLOGY_PATH } from '#shared/reports/usecases/savings-report.ts';
import { WEBHOOK_SECRET_PREFIX } from '#shared/webhooks/domain/signature.ts';
import { deliveryHeaders } from '#shared/webhooks/usecases/webhook-delivery.ts';

const guide = renderLlmsGuide({ baseUrl: 'https://api.example.test/', stage: 'prod' });

/** The route whose path template matches a concrete path (`{id}` matches one segment). */
function routeFor(method: string, path: string): RouteDefinition | undefined {
  return routeList.find(
    (route) =>
      route.method === method && new RegExp(`^${route.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(path),
  );
}

describe('the guide for language models', () => {
  it('is rendered for the stage it is served on, without a trailing slash', () => {
    expect(guide).toContain('Base URL: `https://api.example.test`');
    expect(guide).toContain('production stage');
    expect(renderLlmsGuide({ baseUrl: 'http://127.0.0.1:3001', stage: 'sandbox' })).toContain(
      'sandbox stage',
    );
  });

  it('lists every operation of the route table with its scope', () => {
    for (const route of routeList) {
      const line = guide.split('\n').find((l) => l.startsWith(`- \`${route.method} ${route.path}\`:`));
      expect(line, `${route.method} ${route.path}`).toBeDefined();
      if (route.scope) expect(line).toContain(`scope ${route.scope}`);
      if (route.idempotent) expect(line).toContain('Idempotency-Key required');
    }
  });

  it('follows the route table: a new route appears without touching the generator', () => {
    const extra: GuideRoute = {
      ...(readGuideRoutes()[0] as GuideRoute),
      operationId: 'getNewThing',
      method: 'GET',
      path: '/v1/new-thing',
      summary: 'A new thing',
    };
    expect(renderLlmsGuide({ baseUrl: 'https://x', stage: 'prod' }, [...readGuideRoutes(), extra])).toContain(
      '- `GET /v1/new-thing`: A new thing',
    );
  });

  it('lists every error code with its status, whether to retry and the hint', () => {
    for (const [code, entry] of Object.entries(ERROR_REGISTRY)) {
      expect(guide).toContain(
        `| ${code} | ${entry.status} | ${isRetryable(code as never) ? 'yes' : 'no'} | ${entry.hint} |`,
      );
    }
    expect(isRetryable('rate_limited')).toBe(true);
    expect(isRetryable('route_capacity')).toBe(true);
    expect(isRetryable('quota_exceeded')).toBe(false);
    expect(isRetryable('station_budget_exceeded')).toBe(false);
    expect(isRetryable('validation_failed')).toBe(false);
    // The retry guidance, written out so the rule cannot grade itself.
    const retryable = Object.keys(ERROR_REGISTRY)
      .filter((code) => isRetryable(code as never))
      .sort();
    expect(retryable).toEqual([
      'auth_unavailable',
      'idempotency_conflict',
      'rate_limited',
      'route_capacity',
      'route_computation_timeout',
      'storage_unavailable',
    ]);
    expect(isRetryable('routing_unreachable')).toBe(false);
    expect(isRetryable('internal_error')).toBe(false);
  });

  it('covers the contract’s rules and the MCP endpoint', () => {
    for (const topic of [
      'Authorization: Bearer',
      'svc_live_',
      'svc_test_',
      'SVC-Fleet',
      'ext:<external_ref>',
      'mph, gallons, miles',
      'next_cursor',
      'Idempotency-Key',
      'Retry-After',
      'X-Service-Signature',
      'sandbox/advance',
      '/v1/mcp',
      '-32602',
    ]) {
      expect(guide, topic).toContain(topic);
    }
  });

  it('has worked examples whose calls and bodies the API accepts', () => {
    const calls = [...guide.matchAll(/curl (?:-X (\w+) )?(\S+)[^\n]*?(?:-d '([^']*)')?\s*(?:#.*)?$/gm)];
    expect(calls.length).toBeGreaterThanOrEqual(12);
    for (const [line, method = 'GET', url = '', body] of calls) {
      const path = url.replace(/^(https:\/\/api\.example\.test|\$SANDBOX_BASE_URL)/, '');
      const route = routeFor(method, path);
      expect(route, line).toBeDefined();
      if (!route) continue;
      const schema = route.request.publishedBody ?? route.request.body;
      if (body === undefined) {
        expect(route.request.body === undefined || route.request.bodyRequired === false, line).toBe(true);
        continue;
      }
      const parsed = schema ? z.safeParse(schema, JSON.parse(body)) : undefined;
      expect(parsed?.success, `${line}\n${JSON.stringify(parsed?.error?.issues)}`).toBe(true);
    }
  });
});

/** What tools/list answers on a stage to a key of a mode: the MCP server itself, in process. */
async function toolsListed(stage: Stage, mode: KeyMode): Promise<string[]> {
  const message = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  const request = new Request('https://api.example.test/v1/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify(message),
  });
  const refuse = async (): Promise<never> => {
    throw new Error('tools/list runs no tool');
  };
  const response = await handleMcpRequest(request, message, {
    tools: readListedTools(),
    sandboxTools: SANDBOX_TOOL_NAMES,
    principal: { mode },
    stage,
    caller: {} as never,
    routeOf: refuse,
    invoke: refuse,
  });
  const answer = (await response.json()) as { result: { tools: { name: string }[] } };
  return answer.result.tools.map((tool) => tool.name);
}

/** The key mode a stage takes: the other one is refused before any tool is listed. */
async function refusedOn(stage: Stage, mode: KeyMode): Promise<string | null> {
  const error = await authenticate(
    `Bearer ${KEY_PREFIX[mode]}abcdefghijklmnopqrstuvwxyz012345`,
    stage,
    async () => null,
  )
    .then(() => null)
    .catch((caught: unknown) => (caught instanceof ApiError ? caught.code : String(caught)));
  return error === 'invalid_api_key' && mode === (stage === 'prod' ? 'live' : 'test') ? null : error;
}

/** The tools the guide names in its operations section, as available on its own stage. */
function toolsClaimed(text: string): string[] {
  const operations = text.slice(
    text.indexOf('## Operations\n'),
    text.indexOf('## Operations that are not MCP tools'),
  );
  return [...operations.matchAll(/; tool `(\w+)`\)$/gm)].map(([, name]) => name as string);
}

/** Every id prefix the text shows (`veh_01J…`, `trip_…`, `` `whk_` ``), without its underscore. */
function prefixesShown(text: string): string[] {
  return [
    ...new Set(
      [...text.matchAll(/(?<![\w:])([a-z]+)_(?=[0-9A-HJKMNP-TV-Z]*…|[0-9A-HJKMNP-TV-Z]{26}\b|`)/g)].map(
        ([, p]) => p as string,
      ),
    ),
  ];
}

describe('the guide’s facts, from their sources', () => {
  it.each([
    ['prod', 'live'],
    ['sandbox', 'test'],
  ] as const)(
    'on %s: names exactly the tools tools/list shows a %s key there, and counts them',
    async (stage, mode) => {
      // The stage takes only keys of this mode (authenticate refuses the other before any tool is listed).
      expect(await refusedOn(stage, mode)).toBeNull();
      expect(await refusedOn(stage, mode === 'live' ? 'test' : 'live')).not.toBeNull();
      const text = renderLlmsGuide({ baseUrl: 'https://api.example.test', stage });
      const listed = await toolsListed(stage, mode);

      expect(toolsClaimed(text).sort()).toEqual([...listed].sort());
      expect(text).toContain(
        `On this stage \`tools/list\` shows ${listed.length} tools (to \`${KEY_PREFIX[mode]}…\` keys)`,
      );
      // Each workflow's tool call names a tool this stage lists.
      for (const [, name] of text.matchAll(/"method":"tools\/call","params":\{"name":"(\w+)"/g)) {
        expect(listed).toContain(name);
      }
    },
  );

  it('publishes the savings methodology the report links to, from the report’s own constants', () => {
    const text = renderLlmsGuide({ baseUrl: 'https://api.example.test', stage: 'prod' });
    const section = text.slice(text.indexOf('## Savings methodology'));
    expect(section.startsWith('## Savings methodology')).toBe(true);
    expect(METHODOLOGY_PATH).toBe('/v1/llms.txt?section=savings-methodology');
    expect(section).toContain(`default \`${DEFAULT_FUEL_TAX_TREATMENT}\`)`);
    expect(section).toContain(`within ${FUELING_POLICY.dueWithinMiles} road miles`);
    expect(section).toContain(
      `at most ${FUELING_POLICY.passedOverGraceMinutes} minutes after it was withdrawn`,
    );
  });

  it('answers the methodology alone for the report’s link: it comes first, the guide is named', () => {
    const settings = { baseUrl: 'https://api.example.test/', stage: 'prod' } as const;
    const alone = renderMethodology(settings);
    const guide = renderLlmsGuide(settings);
    expect(alone.startsWith('# Fleet Fuel Guidance API: savings methodology\n')).toBe(true);
    expect(alone).toContain('`GET https://api.example.test/v1/llms.txt`');
    const section = guide.slice(guide.indexOf('## Savings methodology'));
    expect(alone.endsWith(section)).toBe(true);
    expect(alone).not.toContain('## Operations');
  });

  it('claims no tool for an operation that is not one, and says why for each', () => {
    for (const stage of ['prod', 'sandbox'] as const) {
      const text = renderLlmsGuide({ baseUrl: 'https://api.example.test', stage });
      expect(text).toContain(
        '- `POST /v1/locations`: Push vehicle breadcrumbs (at most 500 items and 1 MB per batch) (scope locations:write; not a tool)',
      );
      const section = text.slice(
        text.indexOf('## Operations that are not MCP tools'),
        text.indexOf('## Errors'),
      );
      const notTools = routeList.filter((route) => route.operationId in hiddenFromMcp);
      expect(section.split('\n').filter((line) => line.startsWith('- '))).toEqual(
        notTools.map(
          (route) =>
            `- \`${route.method} ${route.path}\`: ${hiddenFromMcp[route.operationId as keyof typeof hiddenFromMcp]}`,
        ),
      );
      expect(text).toContain(`the ${notTools.length} operations marked "not a tool" are HTTP only`);
      expect(text.match(/; not a tool\)$/gm)).toHaveLength(notTools.length);
    }
  });

  it('shows only id prefixes of the id registry, and every public one', () => {
    const text = renderLlmsGuide({ baseUrl: 'https://api.example.test', stage: 'prod' });
    const registry = Object.values(ID_PREFIXES) as string[];
    const secretPrefix = WEBHOOK_SECRET_PREFIX.replace(/_$/, '');
    expect(
      prefixesShown(text).filter((prefix) => prefix !== secretPrefix && !registry.includes(prefix)),
    ).toEqual([]);
    // Every prefix an API response can carry (the operator API's audit entries are not among them).
    for (const [kind, prefix] of Object.entries(ID_PREFIXES)) {
      if (kind !== 'auditEntry') expect(text, kind).toContain(`\`${prefix}_\``);
    }
    // The check catches what the guide once said.
    expect(prefixesShown('(`veh_01J…`, `trip_…`, `fleet_…`) … /v1/webhooks/whe_…/test')).toEqual([
      'veh',
      'trip',
      'fleet',
      'whe',
    ]);
  });

  it('states the limits, members and counts the code has', () => {
    const text = renderLlmsGuide({ baseUrl: 'https://api.example.test', stage: 'prod' });
    expect(text).toContain(`(default ${PAGE_LIMIT.default}, max ${PAGE_LIMIT.max})`);
    expect(text).toContain(
      `\`errors\` (${Object.keys(fieldErrorSchema._zod.def.shape).join(', ')}) on validation`,
    );
    const idempotent = routeList
      .filter((route) => route.idempotent)
      .map((route) => `${route.method} ${route.path}`);
    expect(idempotent.length).toBeGreaterThan(0);
    for (const operation of idempotent) expect(text).toContain(`\`${operation}\``);
    // The event types the worked examples subscribe to are in the catalog.
    const catalog = EVENT_CATALOG.map(({ type }) => type as string);
    for (const [, types] of text.matchAll(/"event_types":\[([^\]]*)\]/g)) {
      for (const type of JSON.parse(`[${types}]`) as string[]) expect(catalog).toContain(type);
    }
  });

  it('names problems by their registry code and status, and the delivery headers the dispatcher sends', () => {
    const text = renderLlmsGuide({ baseUrl: 'https://api.example.test', stage: 'prod' });
    const statuses = [...text.matchAll(/\b(\d{3}) `([a-z_]+)`/g)];
    expect(statuses.length).toBeGreaterThan(5);
    for (const [said, status, code] of statuses) {
      expect(ERROR_REGISTRY[code as keyof typeof ERROR_REGISTRY]?.status, said).toBe(Number(status));
    }
    const sent = Object.keys(
      deliveryHeaders({ id: 'evt_1', type: 'guidance.updated' }, '{}', ['whsec_x'], 0),
    );
    const named = [
      ...new Set([...text.matchAll(/`(X-Service-[\w-]+)/g)].map(([, header]) => header as string)),
    ];
    expect(named.length).toBeGreaterThan(1);
    for (const header of named) expect(sent).toContain(header);
  });

  it('is rendered from the facts it is given: nothing of them is written into the text', () => {
    const facts = readGuideFacts();
    const text = renderLlmsGuide({ baseUrl: 'https://x.test', stage: 'prod' }, readGuideRoutes(), {
      ...facts,
      pageLimit: { default: 7, max: 70 },
      fieldErrorMembers: ['field', 'reason'],
      prefixOf: { ...facts.prefixOf, webhookEndpoint: 'hook' },
      idPrefixes: [{ prefix: 'hook', names: 'webhook endpoint' }],
      tools: { ...facts.tools, prod: facts.tools.prod.slice(0, 3) },
      simulatedTrucks: ['sim-a', 'sim-b'],
      maxAdvanceMinutes: 90,
    });
    expect(text).toContain('(default 7, max 70)');
    expect(text).toContain('`errors` (field, reason) on validation');
    expect(text).toContain('/v1/webhooks/hook_…/test');
    expect(text).toContain('`hook_` webhook endpoint.');
    expect(text).toContain('`tools/list` shows 3 tools');
    expect(toolsClaimed(text)).toHaveLength(3);
    expect(text).toContain('2 simulated trucks (`ext:sim-a`…`sim-b`)');
    expect(text).toContain('runs up to 90 minutes');
  });
});
