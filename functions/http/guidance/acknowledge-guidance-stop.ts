import { acknowledgeGuidanceStopOperation } from '#shared/guidance/api/operations.ts';
import { acknowledgeGuidanceStop } from '#shared/guidance/usecases/guidance.ts';
import { guidanceWriteDeps } from '#shared/guidance/wiring/guidance.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { noContent } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(acknowledgeGuidanceStopOperation, async ({ params }, context) => {
  await acknowledgeGuidanceStop(guidanceWriteDeps(), actingFleetId(context), params.id, params.stopId);
  return noContent();
});
