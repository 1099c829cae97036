import type { McpToolOperation, RouteHandlerLoader } from '#shared/agents/mcp/http-endpoint.ts';

/** The handler module of each MCP tool of this folder's routes (functions/http/agents/route-handlers.ts). */
export const integrationToolHandlers = {
  getIntegrationHealth: () => import('./get-integration-health.ts'),
  getIntegrationHealthHistory: () => import('./get-integration-health-history.ts'),
  testIntegration: () => import('./test-integration.ts'),
} satisfies Partial<Record<McpToolOperation, RouteHandlerLoader>>;
