import { skipGuidanceStopOperation } from '#shared/guidance/api/operations.ts';
import { skipGuidanceStop } from '#shared/guidance/usecases/guidance.ts';
import { guidancePlanningDeps } from '#shared/guidance/wiring/guidance-planning.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { noContent } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(skipGuidanceStopOperation, async ({ params, body }, context) => {
  await skipGuidanceStop(
    guidancePlanningDeps(),
    actingFleetId(context),
    params.id,
    params.stopId,
    body?.reason ?? null,
  );
  return noContent();
});
