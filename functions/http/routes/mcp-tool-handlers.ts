import type { McpToolOperation, RouteHandlerLoader } from '../../../shared/mcp/http-endpoint.ts';

/** The handler module of each MCP tool of this folder's routes (functions/http/mcp/route-handlers.ts). */
export const routesToolHandlers = {
  createRoute: () => import('./create-route.ts'),
  getRoute: () => import('./get-route.ts'),
} satisfies Partial<Record<McpToolOperation, RouteHandlerLoader>>;
