import { routes } from '../../../shared/api/routes.ts';
import { vehicleResource } from '../../../shared/api/serializers/vehicles.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { guidanceWriteDeps } from '../../../shared/store/guidance-repositories.ts';
import { repositories } from '../../../shared/store/repositories.ts';
import { endGuidanceOfDeactivatedVehicle } from '../../../shared/usecases/guidance.ts';
import { setVehicleStatus } from '../../../shared/usecases/vehicles.ts';

export const handler = createHttpHandler(routes.deactivateVehicle, async ({ params }, context) => {
  const fleetId = actingFleetId(context);
  const vehicle = await setVehicleStatus(
    { vehicles: repositories().vehicles, clock: context.clock },
    fleetId,
    params.id,
    'inactive',
  );
  await endGuidanceOfDeactivatedVehicle(
    { ...guidanceWriteDeps(), now: context.clock.now },
    fleetId,
    vehicle.id,
  );
  return ok(vehicleResource(vehicle));
});
