import type { Context } from 'aws-lambda';
import { ApiError } from '#shared/platform/errors.ts';
import { actingPrincipal } from '#shared/platform/http/acting.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import type { ApiContext, HttpEvent, HttpResponse, HttpResult } from '#shared/platform/http/types.ts';
import type { mcpTools } from '../api/mcp-tools.ts';
import { readListedTools } from './listed-tools.ts';
import { handleMcpRequest } from './server.ts';
import type { ListedTool } from './tools.ts';
import { SANDBOX_TOOL_NAMES } from './visibility.ts';

/** An operation the MCP tool table exposes as a tool. */
export type McpToolOperation = keyof typeof mcpTools;

/** A route's handler module, as `import()` of its file returns it. */
export interface RouteHandlerModule {
  handler: (event: HttpEvent, context: Context) => Promise<HttpResponse>;
}

/**
 * Loads a tool's route handler module on the first call of that tool. The loaders are written out
 * in functions/ (not `import(route.handler)`) so the bundler sees each module.
 */
export type RouteHandlerLoader = () => Promise<RouteHandlerModule>;

/** What the MCP route's handler hands over besides the parsed request and the chain's context. */
export interface McpEndpointCall {
  /** The API Gateway event of the MCP request: a tool call reuses its key and host. */
  caller: HttpEvent;
  lambdaContext: Context;
  /** Each tool's route handler, by operation id. */
  routeHandlers: Readonly<Record<string, RouteHandlerLoader>>;
}

let tools: readonly ListedTool[] | undefined;
/** Read once per container, on the first request. */
function listedTools(): readonly ListedTool[] {
  tools ??= readListedTools();
  return tools;
}

/** The route a tool calls: the route table is a chunk loaded on the first tool call. */
async function routeOf(operationId: string): Promise<RouteDefinition> {
  const { routes } = await import('#shared/api/route-table.ts');
  const route = (routes as Readonly<Record<string, RouteDefinition>>)[operationId];
  if (!route) throw new Error(`The MCP tool table names ${operationId}, which the route table does not have`);
  return route;
}

/** A tool's API call: the route's own Lambda handler, so its whole HTTP chain runs. */
function invokerFor({ lambdaContext, routeHandlers }: McpEndpointCall) {
  return async (route: RouteDefinition, event: HttpEvent): Promise<HttpResponse> => {
    const load = routeHandlers[route.operationId];
    if (!load) throw new Error(`No handler module is listed for the MCP tool of ${route.operationId}`);
    const { handler } = await load();
    // A copy: the chain keeps its per-request state on the context object, and the MCP request's
    // own chain is still using the original.
    return handler(event, { ...lambdaContext });
  };
}

/** The JSON-RPC error the transport answered with, as the API's problem (every 4xx is problem+json). */
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
 * One MCP request, after the HTTP chain accepted its key: the JSON-RPC message goes through the
 * stateless transport, and the transport's answer becomes the route's result.
 */
export async function answerMcpRequest(
  { body, headers }: { body: unknown; headers: Record<string, string | undefined> },
  context: ApiContext,
  call: McpEndpointCall,
): Promise<HttpResult> {
  const request = new Request(new URL('/v1/mcp', context.baseUrl), {
    method: 'POST',
    headers: Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, value]])),
    body: JSON.stringify(body),
  });
  const response = await handleMcpRequest(request, body, {
    tools: listedTools(),
    sandboxTools: SANDBOX_TOOL_NAMES,
    principal: actingPrincipal(context),
    stage: context.stage,
    caller: call.caller,
    routeOf,
    invoke: invokerFor(call),
  });
  if (response.status >= 400) return transportRefusal(response);
  const text = await response.text();
  return { status: response.status, ...(text ? { body: JSON.parse(text) } : {}) };
}
