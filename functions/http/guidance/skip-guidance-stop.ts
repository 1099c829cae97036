import { skipGuidanceStopRoute } from '../../../shared/api/routes/guidance.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { noContent } from '../../../shared/platform/http/types.ts';
import { skipGuidanceStop } from '../../../shared/usecases/guidance.ts';
import { guidancePlanningDeps } from '../../../shared/wiring/guidance-planning.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(skipGuidanceStopRoute, async ({ params, body }, context) => {
  await skipGuidanceStop(
    guidancePlanningDeps(),
    actingFleetId(context),
    params.id,
    params.stopId,
    body?.reason ?? null,
  );
  return noContent();
});
