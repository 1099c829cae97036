import { routes } from '../../../shared/api/routes.ts';
import { actingFleetId, actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { created } from '../../../shared/platform/http/types.ts';
import { startGuidanceDeps } from '../../../shared/store/guidance-repositories.ts';
import { startGuidance } from '../../../shared/usecases/guidance.ts';

export const handler = createHttpHandler(routes.startGuidance, async ({ params, body }, context) =>
  created(
    await startGuidance(
      { ...startGuidanceDeps(), now: context.clock.now },
      actingPrincipal(context),
      actingFleetId(context),
      params.id,
      body,
    ),
  ),
);
