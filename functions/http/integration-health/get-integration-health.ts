import { getIntegrationHealthOperation } from '#shared/integration-health/api/operations.ts';
import { integrationHealth } from '#shared/integration-health/usecases/integration-health.ts';
import { integrationHealthDeps } from '#shared/integration-health/wiring/integration-health.ts';
import { actingPrincipal } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(getIntegrationHealthOperation, async ({ query }, context) =>
  ok(
    await integrationHealth(
      integrationHealthDeps(),
      { principal: actingPrincipal(context), actingFleetId: context.fleetId },
      query,
    ),
  ),
);
