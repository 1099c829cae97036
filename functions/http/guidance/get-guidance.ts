import { routes } from '../../../shared/api/routes.ts';
import { guidanceResource } from '../../../shared/api/serializers/guidance.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { getGuidance } from '../../../shared/usecases/guidance.ts';
import { guidanceWriteDeps } from '../../../shared/wiring/guidance.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(routes.getGuidance, async ({ params }, context) => {
  const session = await getGuidance(guidanceWriteDeps(), actingFleetId(context), params.id);
  return ok(guidanceResource(session, context.clock.now()));
});
