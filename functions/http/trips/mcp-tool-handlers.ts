import type { McpToolOperation, RouteHandlerLoader } from '#shared/agents/mcp/http-endpoint.ts';

/** The handler module of each MCP tool of this folder's routes (functions/http/agents/route-handlers.ts). */
export const tripsToolHandlers = {
  createTrip: () => import('./create-trip.ts'),
  listTrips: () => import('./list-trips.ts'),
  getTrip: () => import('./get-trip.ts'),
  updateTrip: () => import('./update-trip.ts'),
  deleteTrip: () => import('./delete-trip.ts'),
  startTrip: () => import('./start-trip.ts'),
  completeTrip: () => import('./complete-trip.ts'),
  cancelTrip: () => import('./cancel-trip.ts'),
  optimizeTrip: () => import('./optimize-trip.ts'),
  arriveAtTripStop: () => import('./arrive-at-trip-stop.ts'),
  departTripStop: () => import('./depart-trip-stop.ts'),
} satisfies Partial<Record<McpToolOperation, RouteHandlerLoader>>;
