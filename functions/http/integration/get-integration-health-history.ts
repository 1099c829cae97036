import { getIntegrationHealthHistoryRoute } from '../../../shared/api/routes/integration.ts';
import { actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { healthHistory } from '../../../shared/usecases/integration-health-history.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { integrationHistoryDeps } from '../../../shared/wiring/integration-health.ts';

export const handler = httpHandler(getIntegrationHealthHistoryRoute, async ({ query }, context) =>
  ok(
    await healthHistory(
      integrationHistoryDeps(),
      { principal: actingPrincipal(context), actingFleetId: context.fleetId },
      query,
    ),
  ),
);
