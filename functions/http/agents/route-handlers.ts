import type { McpToolOperation, RouteHandlerLoader } from '#shared/agents/mcp/http-endpoint.ts';
import { accountToolHandlers } from '../accounts/mcp-tool-handlers.ts';
import { eventsToolHandlers } from '../events/mcp-tool-handlers.ts';
import { fleetsToolHandlers } from '../fleets/mcp-tool-handlers.ts';
import { fuelingsToolHandlers } from '../fuelings/mcp-tool-handlers.ts';
import { guidanceToolHandlers } from '../guidance/mcp-tool-handlers.ts';
import { integrationToolHandlers } from '../integration-health/mcp-tool-handlers.ts';
import { reportsToolHandlers } from '../reports/mcp-tool-handlers.ts';
import { sandboxToolHandlers } from '../sandbox/mcp-tool-handlers.ts';
import { stationsToolHandlers } from '../stations/mcp-tool-handlers.ts';
import { tripsToolHandlers } from '../trips/mcp-tool-handlers.ts';
import { truckRoutesToolHandlers } from '../truck-routes/mcp-tool-handlers.ts';
import { vehiclesToolHandlers } from '../vehicles/mcp-tool-handlers.ts';
import { webhooksToolHandlers } from '../webhooks/mcp-tool-handlers.ts';

/**
 * The handler module of every tool's route, loaded on the first call of that tool. Each feature's
 * folder lists its own (`mcp-tool-handlers.ts`), written out (not `import(route.handler)`) so the
 * bundler sees each module; a unit test checks every entry is the module its route names, and the
 * type that every tool has one.
 */
export const routeHandlers: Record<McpToolOperation, RouteHandlerLoader> = {
  ...accountToolHandlers,
  ...fleetsToolHandlers,
  ...vehiclesToolHandlers,
  ...stationsToolHandlers,
  ...truckRoutesToolHandlers,
  ...webhooksToolHandlers,
  ...eventsToolHandlers,
  ...guidanceToolHandlers,
  ...tripsToolHandlers,
  ...fuelingsToolHandlers,
  ...reportsToolHandlers,
  ...sandboxToolHandlers,
  ...integrationToolHandlers,
};
