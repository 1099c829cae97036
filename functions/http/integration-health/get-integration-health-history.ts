import { getIntegrationHealthHistoryOperation } from '#shared/integration-health/api/operations.ts';
import { healthHistory } from '#shared/integration-health/usecases/integration-health-history.ts';
import { integrationHistoryDeps } from '#shared/integration-health/wiring/integration-health.ts';
import { actingPrincipal } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(getIntegrationHealthHistoryOperation, async ({ query }, context) =>
  ok(
    await healthHistory(
      integrationHistoryDeps(),
      { principal: actingPrincipal(context), actingFleetId: context.fleetId },
      query,
    ),
  ),
);
