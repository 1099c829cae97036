import { getGuidanceRoute } from '../../../shared/api/routes/guidance.ts';
import { guidanceResource } from '../../../shared/api/serializers/guidance.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { getGuidance } from '../../../shared/usecases/guidance.ts';
import { guidanceReadDeps } from '../../../shared/wiring/guidance.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(getGuidanceRoute, async ({ params }, context) => {
  const session = await getGuidance(guidanceReadDeps(), actingFleetId(context), params.id);
  return ok(guidanceResource(session, context.clock.now()));
});
