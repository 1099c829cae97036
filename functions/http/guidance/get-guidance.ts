import { getGuidanceOperation } from '#shared/guidance/api/operations.ts';
import { guidanceResource } from '#shared/guidance/api/serializers.ts';
import { getGuidance } from '#shared/guidance/usecases/guidance.ts';
import { guidanceReadDeps } from '#shared/guidance/wiring/guidance.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(getGuidanceOperation, async ({ params }, context) => {
  const session = await getGuidance(guidanceReadDeps(), actingFleetId(context), params.id);
  return ok(guidanceResource(session, context.clock.now()));
});
