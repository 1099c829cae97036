import { routes } from '../../../shared/api/routes.ts';
import { fleetResource } from '../../../shared/api/serializers/fleets.ts';
import { actingPartnerId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { created } from '../../../shared/platform/http/types.ts';
import { deliveryDeps } from '../../../shared/store/delivery-repositories.ts';
import { repositories } from '../../../shared/store/repositories.ts';
import { provisionFleet } from '../../../shared/usecases/fleets.ts';
import { fanOut } from '../../../shared/usecases/webhook-delivery.ts';

export const handler = createHttpHandler(routes.createFleet, async ({ body }, context) => {
  const fleet = await provisionFleet(
    {
      fleets: repositories().fleets,
      stage: context.stage,
      clock: context.clock,
      announce: (event, partnerId) => fanOut(deliveryDeps(), event, partnerId),
    },
    actingPartnerId(context),
    body,
  );
  return created(fleetResource(fleet));
});
