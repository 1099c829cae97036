import { routes } from '../../../shared/api/routes.ts';
import { actingFleetId, actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { guidanceWriteDeps } from '../../../shared/store/guidance-repositories.ts';
import { getGuidance } from '../../../shared/usecases/guidance.ts';

export const handler = createHttpHandler(routes.getGuidance, async ({ params }, context) =>
  ok(
    await getGuidance(
      { ...guidanceWriteDeps(), now: context.clock.now },
      actingPrincipal(context),
      actingFleetId(context),
      params.id,
    ),
  ),
);
