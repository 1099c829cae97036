import { routes } from '../../../shared/api/routes.ts';
import { fleetResource } from '../../../shared/api/serializers/fleets.ts';
import { actingPartnerId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { repositories } from '../../../shared/store/repositories.ts';
import { updateFleet } from '../../../shared/usecases/fleets.ts';

export const handler = createHttpHandler(routes.updateFleet, async ({ params, body }, context) => {
  const fleet = await updateFleet(
    { fleets: repositories().fleets, stage: context.stage, clock: context.clock },
    actingPartnerId(context),
    params.id,
    body,
  );
  return ok(fleetResource(fleet));
});
