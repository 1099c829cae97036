import { routes } from '../../../shared/api/routes.ts';
import { actingPartnerId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { noContent } from '../../../shared/platform/http/types.ts';
import { repositories } from '../../../shared/store/repositories.ts';
import { deactivateFleet } from '../../../shared/usecases/fleets.ts';

export const handler = createHttpHandler(routes.deleteFleet, async ({ params }, context) => {
  await deactivateFleet(
    { fleets: repositories().fleets, stage: context.stage, clock: context.clock },
    actingPartnerId(context),
    params.id,
  );
  return noContent();
});
