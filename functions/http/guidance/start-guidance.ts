import { startGuidanceOperation } from '#shared/guidance/api/operations.ts';
import { guidanceResource } from '#shared/guidance/api/serializers.ts';
import { startGuidance } from '#shared/guidance/usecases/guidance.ts';
import { guidancePlanningDeps } from '#shared/guidance/wiring/guidance-planning.ts';
import { actingFleetId, actingPrincipal } from '#shared/platform/http/acting.ts';
import { created } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(startGuidanceOperation, async ({ params, body }, context) => {
  const session = await startGuidance(
    guidancePlanningDeps(),
    actingPrincipal(context),
    actingFleetId(context),
    params.id,
    body,
  );
  return created(guidanceResource(session, context.clock.now()));
});
