import { startGuidanceRoute } from '../../../shared/api/routes/guidance.ts';
import { guidanceResource } from '../../../shared/api/serializers/guidance.ts';
import { actingFleetId, actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { created } from '../../../shared/platform/http/types.ts';
import { startGuidance } from '../../../shared/usecases/guidance.ts';
import { guidancePlanningDeps } from '../../../shared/wiring/guidance-planning.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(startGuidanceRoute, async ({ params, body }, context) => {
  const session = await startGuidance(
    guidancePlanningDeps(),
    actingPrincipal(context),
    actingFleetId(context),
    params.id,
    body,
  );
  return created(guidanceResource(session, context.clock.now()));
});
