import type { McpToolOperation, RouteHandlerLoader } from '#shared/agents/mcp/http-endpoint.ts';

/** The handler module of each MCP tool of this folder's routes (functions/http/agents/route-handlers.ts). */
export const guidanceToolHandlers = {
  startGuidance: () => import('./start-guidance.ts'),
  getGuidance: () => import('./get-guidance.ts'),
  cancelGuidance: () => import('./cancel-guidance.ts'),
  acknowledgeGuidanceStop: () => import('./acknowledge-guidance-stop.ts'),
  skipGuidanceStop: () => import('./skip-guidance-stop.ts'),
} satisfies Partial<Record<McpToolOperation, RouteHandlerLoader>>;
