import { agentExamples } from './examples/agents.ts';
import { accountExamples, discoveryExamples } from './examples/discovery.ts';
import { eventExamples } from './examples/events.ts';
import type { OperationExamples } from './examples/example.ts';
import { fleetExamples } from './examples/fleets.ts';
import { fuelingExamples } from './examples/fuelings.ts';
import { guidanceExamples } from './examples/guidance.ts';
import { integrationExamples } from './examples/integration.ts';
import { keyExamples } from './examples/keys.ts';
import { locationExamples } from './examples/locations.ts';
import { reportExamples } from './examples/reports.ts';
import { routeExamples } from './examples/routes.ts';
import { sandboxExamples } from './examples/sandbox.ts';
import { stationExamples } from './examples/stations.ts';
import { tripExamples } from './examples/trips.ts';
import { vehicleExamples, vehicleLocationExamples } from './examples/vehicles.ts';
import { webhookExamples } from './examples/webhooks.ts';

/**
 * Every operation's examples, by operationId: one module per feature under examples/, like the
 * route table (routes.ts). openapi.json publishes them; test/unit/api/examples.test.ts checks every
 * operation has them and that each parses with the route's schemas (docs/openapi.md).
 */
export const operationExamples: Readonly<Record<string, OperationExamples>> = {
  ...discoveryExamples,
  ...accountExamples,
  ...fleetExamples,
  ...vehicleExamples,
  ...stationExamples,
  ...routeExamples,
  ...webhookExamples,
  ...locationExamples,
  ...guidanceExamples,
  ...vehicleLocationExamples,
  ...tripExamples,
  ...fuelingExamples,
  ...reportExamples,
  ...keyExamples,
  ...sandboxExamples,
  ...integrationExamples,
  ...eventExamples,
  ...agentExamples,
};
