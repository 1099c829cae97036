import type { Context } from 'aws-lambda';
import { agentRoutes } from '../../../shared/api/routes/agents.ts';
import { readListedTools } from '../../../shared/mcp/listed-tools.ts';
import { handleMcpRequest } from '../../../shared/mcp/server.ts';
import type { ListedTool } from '../../../shared/mcp/tools.ts';
import { SANDBOX_TOOL_NAMES } from '../../../shared/mcp/visibility.ts';
import { ApiError } from '../../../shared/platform/errors.ts';
import { actingPrincipal } from '../../../shared/platform/http/acting.ts';
import type { RouteDefinition } from '../../../shared/platform/http/route-definition.ts';
import type { HttpEvent, HttpResponse, HttpResult } from '../../../shared/platform/http/types.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { routeHandlers } from './route-handlers.ts';

let tools: readonly ListedTool[] | undefined;
/** Read once per container, on the first request. */
function listedTools(): readonly ListedTool[] {
  tools ??= readListedTools();
  return tools;
}

/** The route a tool calls: the route table is a chunk loaded on the first tool call. */
async function routeOf(operationId: string): Promise<RouteDefinition> {
  const { routes } = await import('../../../shared/api/routes.ts');
  const route = (routes as Readonly<Record<string, RouteDefinition>>)[operationId];
  if (!route) throw new Error(`The MCP tool table names ${operationId}, which the route table does not have`);
  return route;
}

/** A tool's API call: the route's own Lambda handler, so its whole HTTP chain runs. */
function invokerFor(context: Context) {
  return async (route: RouteDefinition, event: HttpEvent): Promise<HttpResponse> => {
    const { handler } = await routeHandlers[route.operationId as keyof typeof routeHandlers]();
    // A copy: the chain keeps its per-request state on the context object, and the MCP request's
    // own chain is still using the original.
    return handler(event, { ...context });
  };
}

/** The JSON-RPC error the transport answered with, as the API's problem (spec: every 4xx is problem+json). */
async function transportRefusal(response: Response): Promise<never> {
  const text = await response.text();
  let message = text;
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {}
  throw new ApiError(
    'validation_failed',
    `The MCP transport refused the request (${response.status}): ${message}`,
    {
      hint: 'POST one JSON-RPC message with Accept: application/json, text/event-stream (docs/mcp.md)',
    },
  );
}

/**
 * The chain is built per request because the tool calls need the request's own event (its key and
 * host) and Lambda context; building it is a few object allocations.
 */
export const handler = (event: HttpEvent, lambdaContext: Context) =>
  httpHandler(agentRoutes.mcp, async ({ body, headers }, context): Promise<HttpResult> => {
    const request = new Request(new URL('/v1/mcp', context.baseUrl), {
      method: 'POST',
      headers: Object.entries(headers).flatMap(([name, value]) =>
        value === undefined ? [] : [[name, value]],
      ),
      body: JSON.stringify(body),
    });
    const response = await handleMcpRequest(request, body, {
      tools: listedTools(),
      sandboxTools: SANDBOX_TOOL_NAMES,
      principal: actingPrincipal(context),
      stage: context.stage,
      caller: event,
      routeOf,
      invoke: invokerFor(lambdaContext),
    });
    if (response.status >= 400) return transportRefusal(response);
    const text = await response.text();
    return { status: response.status, ...(text ? { body: JSON.parse(text) } : {}) };
  })(event, lambdaContext);
