import type { McpToolOperation, RouteHandlerLoader } from '#shared/agents/mcp/http-endpoint.ts';

/** The handler module of each MCP tool of this folder's routes (functions/http/agents/route-handlers.ts). */
export const vehiclesToolHandlers = {
  createVehicle: () => import('./create-vehicle.ts'),
  listVehicles: () => import('./list-vehicles.ts'),
  getVehicle: () => import('./get-vehicle.ts'),
  updateVehicle: () => import('./update-vehicle.ts'),
  deactivateVehicle: () => import('./deactivate-vehicle.ts'),
  reactivateVehicle: () => import('./reactivate-vehicle.ts'),
  getVehicleLocation: () => import('./get-vehicle-location.ts'),
} satisfies Partial<Record<McpToolOperation, RouteHandlerLoader>>;
