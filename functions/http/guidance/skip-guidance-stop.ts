import { routes } from '../../../shared/api/routes.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { noContent } from '../../../shared/platform/http/types.ts';
import { guidanceWriteDeps } from '../../../shared/store/guidance-repositories.ts';
import { skipGuidanceStop } from '../../../shared/usecases/guidance.ts';

export const handler = createHttpHandler(routes.skipGuidanceStop, async ({ params, body }, context) => {
  await skipGuidanceStop(
    { ...guidanceWriteDeps(), now: context.clock.now },
    actingFleetId(context),
    params.id,
    params.stopId,
    body?.reason ?? null,
  );
  return noContent();
});
