import type { McpToolOperation, RouteHandlerLoader } from '#shared/agents/mcp/http-endpoint.ts';

/** The handler module of each MCP tool of this folder's routes (functions/http/agents/route-handlers.ts). */
export const fleetsToolHandlers = {
  createFleet: () => import('./create-fleet.ts'),
  listFleets: () => import('./list-fleets.ts'),
  getFleet: () => import('./get-fleet.ts'),
  updateFleet: () => import('./update-fleet.ts'),
  deleteFleet: () => import('./delete-fleet.ts'),
  getActingFleet: () => import('./get-acting-fleet.ts'),
  updateActingFleet: () => import('./update-acting-fleet.ts'),
} satisfies Partial<Record<McpToolOperation, RouteHandlerLoader>>;
