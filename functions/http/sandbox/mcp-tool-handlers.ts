import type { McpToolOperation, RouteHandlerLoader } from '#shared/agents/mcp/http-endpoint.ts';

/** The handler module of each MCP tool of this folder's routes (functions/http/agents/route-handlers.ts). */
export const sandboxToolHandlers = {
  resetSandbox: () => import('./reset-sandbox.ts'),
  setSandboxScenario: () => import('./set-sandbox-scenario.ts'),
  getSandboxSimulation: () => import('./get-sandbox-simulation.ts'),
  advanceSandbox: () => import('./advance-sandbox.ts'),
} satisfies Partial<Record<McpToolOperation, RouteHandlerLoader>>;
