import { acknowledgeGuidanceStopRoute } from '../../../shared/api/routes/guidance.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { noContent } from '../../../shared/platform/http/types.ts';
import { acknowledgeGuidanceStop } from '../../../shared/usecases/guidance.ts';
import { guidanceWriteDeps } from '../../../shared/wiring/guidance.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(acknowledgeGuidanceStopRoute, async ({ params }, context) => {
  await acknowledgeGuidanceStop(guidanceWriteDeps(), actingFleetId(context), params.id, params.stopId);
  return noContent();
});
