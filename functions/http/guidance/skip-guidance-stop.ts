import { routes } from '../../../shared/api/routes.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { noContent } from '../../../shared/platform/http/types.ts';
import { startGuidanceDeps } from '../../../shared/store/guidance-repositories.ts';
import { skipGuidanceStop } from '../../../shared/usecases/guidance.ts';

export const handler = createHttpHandler(routes.skipGuidanceStop, async ({ params, body }, context) => {
  await skipGuidanceStop(
    { ...startGuidanceDeps(), now: context.clock.now },
    actingFleetId(context),
    params.id,
    params.stopId,
    body?.reason ?? null,
  );
  return noContent();
});
