import type { McpToolOperation, RouteHandlerLoader } from '#shared/agents/mcp/http-endpoint.ts';

/** The handler module of each MCP tool of this folder's routes (functions/http/agents/route-handlers.ts). */
export const truckRoutesToolHandlers = {
  createRoute: () => import('./create-route.ts'),
  getRoute: () => import('./get-route.ts'),
} satisfies Partial<Record<McpToolOperation, RouteHandlerLoader>>;
