import { routeGroup } from '#shared/api/route-group.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import {
  advanceBody,
  advanceResultSchema,
  resetActionSchema,
  sandboxVehicleParams,
  scenarioActionSchema,
  scenarioBody,
  simulationSchema,
} from './schemas.ts';

const SANDBOX_ONLY =
  'Sandbox stage only (test keys); on the production stage it answers 404 resource_not_found naming the sandbox base URL.';

/**
 * The sandbox tools act on the twin's simulated vehicles, so they take the vehicle scope
 * (docs/sandbox.md).
 */
const sandboxOperation = routeGroup({
  tags: ['Sandbox'],
  handlers: 'functions/http/sandbox',
  access: 'fleet',
  scope: 'vehicles:manage',
  family: 'sandbox',
  role: 'api',
  idempotent: false,
});

export const resetSandboxOperation = /* @__PURE__ */ sandboxOperation({
  operationId: 'resetSandbox',
  route: 'POST /v1/sandbox/reset',
  summary:
    'Put the three simulated trucks back to their initial profiles, clearing guidance, trips, fuelings and history',
  description: SANDBOX_ONLY,
  responses: [{ status: 200, description: 'Reset done', schema: resetActionSchema }],
  errors: ['resource_not_found'],
});

export const setSandboxScenarioOperation = /* @__PURE__ */ sandboxOperation({
  operationId: 'setSandboxScenario',
  route: 'POST /v1/sandbox/vehicles/{id}/scenario',
  summary: "Schedule a scenario for a simulated truck's next simulated minute",
  description: `${SANDBOX_ONLY} An unknown scenario is 422 listing the valid ones; a vehicle that is not one of the simulated trucks is 404.`,
  request: { params: sandboxVehicleParams, body: scenarioBody },
  responses: [{ status: 202, description: 'Scheduled', schema: scenarioActionSchema }],
  errors: ['resource_not_found'],
});

export const getSandboxSimulationOperation = /* @__PURE__ */ sandboxOperation({
  operationId: 'getSandboxSimulation',
  route: 'GET /v1/sandbox/simulation',
  summary:
    'The simulation snapshot: clock, status, and per truck position, fuel, state, scenario and guidance',
  description: SANDBOX_ONLY,
  responses: [{ status: 200, description: 'The snapshot', schema: simulationSchema }],
  errors: ['resource_not_found'],
});

export const advanceSandboxOperation = /* @__PURE__ */ sandboxOperation({
  operationId: 'advanceSandbox',
  route: 'POST /v1/sandbox/advance',
  summary: 'Test clock: run 1–1440 simulated minutes now, through the real pipeline',
  description: `${SANDBOX_ONLY} Answers with the snapshot after the minutes ran, saved after every 15 of them. A long advance stops when the request's time runs short (the function has 28 s): \`advanced_minutes\` then says how far it got of \`requested_minutes\`, and the client calls again for the rest. Every breadcrumb is stored and queued before the answer; on the local stack the guidance worker has also handled them all, deployed it handles them within seconds of the answer (docs/sandbox.md).`,
  request: { body: advanceBody },
  responses: [{ status: 200, description: 'The snapshot the advance reached', schema: advanceResultSchema }],
  errors: ['resource_not_found'],
  timeoutSeconds: 28,
});

export const sandboxOperations = {
  resetSandbox: resetSandboxOperation,
  setSandboxScenario: setSandboxScenarioOperation,
  getSandboxSimulation: getSandboxSimulationOperation,
  advanceSandbox: advanceSandboxOperation,
} satisfies Record<string, RouteDefinition>;
