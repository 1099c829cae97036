import { testIntegrationRoute } from '../../../shared/api/routes/integration.ts';
import { actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { runIntegrationTest } from '../../../shared/usecases/integration-health-test.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { integrationTestDeps } from '../../../shared/wiring/integration-health.ts';

export const handler = httpHandler(testIntegrationRoute, async ({ query }, context) =>
  ok(
    await runIntegrationTest(
      integrationTestDeps(),
      { principal: actingPrincipal(context), actingFleetId: context.fleetId },
      query,
      context.stage === 'sandbox',
    ),
  ),
);
