import { getIntegrationHealthRoute } from '../../../shared/api/routes/integration.ts';
import { actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { integrationHealth } from '../../../shared/usecases/integration-health.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { integrationHealthDeps } from '../../../shared/wiring/integration-health.ts';

export const handler = httpHandler(getIntegrationHealthRoute, async ({ query }, context) =>
  ok(
    await integrationHealth(
      integrationHealthDeps(),
      { principal: actingPrincipal(context), actingFleetId: context.fleetId },
      query,
    ),
  ),
);
