import { routes } from '../../../shared/api/routes.ts';
import { vehicleResource } from '../../../shared/api/serializers/vehicles.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { repositories } from '../../../shared/store/repositories.ts';
import { setVehicleStatus } from '../../../shared/usecases/vehicles.ts';

export const handler = createHttpHandler(routes.reactivateVehicle, async ({ params }, context) => {
  const vehicle = await setVehicleStatus(
    { vehicles: repositories().vehicles, clock: context.clock },
    actingFleetId(context),
    params.id,
    'active',
  );
  return ok(vehicleResource(vehicle));
});
