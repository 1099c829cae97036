import { agentExamples } from '#shared/agents/api/examples.ts';
import { accountExamples, discoveryExamples } from '#shared/discovery/api/examples.ts';
import { eventExamples } from '#shared/events/api/examples.ts';
import { fleetExamples } from '#shared/fleets/api/examples.ts';
import { fuelingExamples } from '#shared/fuelings/api/examples.ts';
import { guidanceExamples } from '#shared/guidance/api/examples.ts';
import { integrationExamples } from '#shared/integration-health/api/examples.ts';
import { keyExamples } from '#shared/keys/api/examples.ts';
import { reportExamples } from '#shared/reports/api/examples.ts';
import { sandboxExamples } from '#shared/sandbox/api/examples.ts';
import { stationExamples } from '#shared/stations/api/examples.ts';
import { locationExamples } from '#shared/tracking/api/examples.ts';
import { tripExamples } from '#shared/trips/api/examples.ts';
import { truckRouteExamples } from '#shared/truck-routes/api/examples.ts';
import { vehicleExamples, vehicleLocationExamples } from '#shared/vehicles/api/examples.ts';
import { webhookExamples } from '#shared/webhooks/api/examples.ts';
import type { OperationExamples } from './example.ts';

/**
 * Every operation's examples, by operationId: one module per feature (shared/<feature>/api/examples.ts),
 * assembled like the route table (route-table.ts). openapi.json publishes them; test/unit/api/examples.test.ts checks every
 * operation has them and that each parses with the route's schemas (docs/openapi.md).
 */
export const operationExamples: Readonly<Record<string, OperationExamples>> = {
  ...discoveryExamples,
  ...accountExamples,
  ...fleetExamples,
  ...vehicleExamples,
  ...stationExamples,
  ...truckRouteExamples,
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
