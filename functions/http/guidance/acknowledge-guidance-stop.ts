import { routes } from '../../../shared/api/routes.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { noContent } from '../../../shared/platform/http/types.ts';
import { guidanceWriteDeps } from '../../../shared/store/guidance-repositories.ts';
import { acknowledgeGuidanceStop } from '../../../shared/usecases/guidance.ts';

export const handler = createHttpHandler(routes.acknowledgeGuidanceStop, async ({ params }, context) => {
  await acknowledgeGuidanceStop(
    { ...guidanceWriteDeps(), now: context.clock.now },
    actingFleetId(context),
    params.id,
    params.stopId,
  );
  return noContent();
});
