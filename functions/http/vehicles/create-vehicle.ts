import { routes } from '../../../shared/api/routes.ts';
import { vehicleResource } from '../../../shared/api/serializers/vehicles.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { created, ok } from '../../../shared/platform/http/types.ts';
import { repositories } from '../../../shared/store/repositories.ts';
import { createVehicle } from '../../../shared/usecases/vehicles.ts';

export const handler = createHttpHandler(routes.createVehicle, async ({ body }, context) => {
  const { vehicle, mergedWithExisting } = await createVehicle(
    { vehicles: repositories().vehicles, clock: context.clock },
    actingFleetId(context),
    body,
  );
  return mergedWithExisting
    ? ok({ ...vehicleResource(vehicle), merged_with_existing: true })
    : created(vehicleResource(vehicle));
});
