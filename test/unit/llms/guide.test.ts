import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { mcpTools } from '../../../shared/api/mcp-tools.ts';
import { routeList } from '../../../shared/api/routes.ts';
import { isRetryable, renderLlmsGuide } from '../../../shared/llms/guide.ts';
import { ERROR_REGISTRY } from '../../../shared/platform/errors.ts';
import type { RouteDefinition } from '../../../shared/platform/http/route-definition.ts';

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
    const extra = {
      ...routeList[0],
      method: 'GET',
      path: '/v1/new-thing',
      summary: 'A new thing',
    } as RouteDefinition;
    expect(renderLlmsGuide({ baseUrl: 'https://x', stage: 'prod' }, [...routeList, extra])).toContain(
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
    // Spec §7's retry guidance, written out so the rule cannot grade itself.
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
      `${Object.keys(mcpTools).length} tools`,
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
