import { routes } from '../../../shared/api/routes.ts';
import { fleetResource } from '../../../shared/api/serializers/fleets.ts';
import { actingPartnerId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { repositories } from '../../../shared/store/repositories.ts';
import { grantedFleet } from '../../../shared/usecases/fleets.ts';

export const handler = createHttpHandler(routes.getFleet, async ({ params }, context) => {
  const fleet = await grantedFleet(repositories(), actingPartnerId(context), params.id);
  return ok(fleetResource(fleet));
});
