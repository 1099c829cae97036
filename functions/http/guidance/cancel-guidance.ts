import { cancelGuidanceRoute } from '../../../shared/api/routes/guidance.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { noContent } from '../../../shared/platform/http/types.ts';
import { cancelGuidance } from '../../../shared/usecases/guidance.ts';
import { guidanceWriteDeps } from '../../../shared/wiring/guidance.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(cancelGuidanceRoute, async ({ params }, context) => {
  await cancelGuidance(guidanceWriteDeps(), actingFleetId(context), params.id);
  return noContent();
});
