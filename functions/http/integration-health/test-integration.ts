import { testIntegrationOperation } from '#shared/integration-health/api/operations.ts';
import { runIntegrationTest } from '#shared/integration-health/usecases/integration-health-test.ts';
import { integrationTestDeps } from '#shared/integration-health/wiring/integration-health.ts';
import { actingPrincipal } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(testIntegrationOperation, async ({ query }, context) =>
  ok(
    await runIntegrationTest(
      integrationTestDeps(),
      { principal: actingPrincipal(context), actingFleetId: context.fleetId },
      query,
      context.stage === 'sandbox',
    ),
  ),
);
