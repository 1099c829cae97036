import type { McpToolOperation, RouteHandlerLoader } from '#shared/agents/mcp/http-endpoint.ts';

/** The handler module of each MCP tool of this folder's routes (functions/http/agents/route-handlers.ts). */
export const fuelingsToolHandlers = {
  recordFuelings: () => import('./record-fuelings.ts'),
  listFuelings: () => import('./list-fuelings.ts'),
} satisfies Partial<Record<McpToolOperation, RouteHandlerLoader>>;
