import { cancelGuidanceOperation } from '#shared/guidance/api/operations.ts';
import { cancelGuidance } from '#shared/guidance/usecases/guidance.ts';
import { guidanceWriteDeps } from '#shared/guidance/wiring/guidance.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { noContent } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(cancelGuidanceOperation, async ({ params }, context) => {
  await cancelGuidance(guidanceWriteDeps(), actingFleetId(context), params.id);
  return noContent();
});
