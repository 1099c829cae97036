import { routes } from '../../../shared/api/routes.ts';
import { vehicleResource } from '../../../shared/api/serializers/vehicles.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { repositories } from '../../../shared/store/repositories.ts';
import { updateVehicle } from '../../../shared/usecases/vehicles.ts';

export const handler = createHttpHandler(routes.updateVehicle, async ({ params, body }, context) => {
  const vehicle = await updateVehicle(
    { vehicles: repositories().vehicles, clock: context.clock },
    actingFleetId(context),
    params.id,
    body,
  );
  return ok(vehicleResource(vehicle));
});
