import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import type { Stage } from '#shared/platform/config.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import type { HttpEvent, HttpResponse } from '#shared/platform/http/types.ts';
import { type CallerEvent, eventForToolCall, type ToolResult, toolResultFor } from './tool-call.ts';
import type { ListedTool } from './tools.ts';
import { visibleTools } from './visibility.ts';

export const MCP_SERVER_INFO = { name: 'fleet-fuel-guidance', version: '1.0.0' } as const;

export interface McpExchange {
  /** Every generated tool; the sandbox ones are filtered out here unless the caller may see them. */
  tools: readonly ListedTool[];
  /** Names of the simulator's tools (docs/sandbox.md). */
  sandboxTools: ReadonlySet<string>;
  principal: Pick<Principal, 'mode'>;
  stage: Stage;
  caller: CallerEvent;
  /** The route a tool's operation runs (loaded on the first call: tools/list needs none). */
  routeOf: (operationId: string) => Promise<RouteDefinition>;
  /** Runs the route's handler on an API Gateway event: the whole HTTP chain of that route. */
  invoke: (route: RouteDefinition, event: HttpEvent) => Promise<HttpResponse>;
}

export { visibleTools };

/**
 * The SDK checks JSON Schema only on what a client answers to an elicitation (`elicitInput`), which
 * this server never sends: tool arguments are checked by each route's own zod schemas. So nothing
 * is compiled (the SDK's default, ajv with its formats, is ~135 KB of the MCP function's cold start;
 * the Lambda bundle leaves it out, scripts/bundle-functions.ts), and a validator asked for fails
 * loudly rather than accepting anything.
 */
export const noElicitationValidator: jsonSchemaValidator = {
  getValidator() {
    throw new Error('This MCP server never elicits input, so it has no JSON Schema validator');
  },
};

/** A low-level SDK server with the two tool handlers: tools are generated, so no per-tool registration. */
function serverFor(exchange: McpExchange): Server {
  const tools = visibleTools(exchange);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    jsonSchemaValidator: noElicitationValidator,
    instructions:
      'Fleet Fuel Guidance API as tools. Each tool call is the API call named in its description, with the same key, scopes and limits. A problem comes back as isError with code, detail and hint. GET /llms.txt is the guide.',
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, description, inputSchema, annotations }) => ({
      name,
      description,
      inputSchema,
      annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<ToolResult> => {
    const tool = byName.get(request.params.name);
    // Spec section 1.6: an unknown tool is a protocol error, not a tool result.
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool: ${request.params.name}. tools/list names the tools this key may call.`,
      );
    }
    const route = await exchange.routeOf(tool.operationId);
    const args = request.params.arguments ?? {};
    const event = eventForToolCall(route, args, exchange.caller);
    return toolResultFor(route, await exchange.invoke(route, event), args);
  });
  return server;
}

/**
 * One stateless Streamable HTTP exchange: a fresh server and transport per request (no session id,
 * JSON responses instead of SSE), as the SDK's stateless example does, so any Lambda can answer it.
 */
export async function handleMcpRequest(request: Request, parsedBody: unknown, exchange: McpExchange) {
  const server = serverFor(exchange);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await transport.close();
    await server.close();
  }
}
