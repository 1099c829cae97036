import { routes } from '../../../shared/api/routes.ts';
import { vehicleResource } from '../../../shared/api/serializers/vehicles.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { repositories } from '../../../shared/store/repositories.ts';
import { findVehicle } from '../../../shared/usecases/vehicles.ts';

export const handler = createHttpHandler(routes.getVehicle, async ({ params }, context) => {
  const vehicle = await findVehicle(repositories(), actingFleetId(context), params.id);
  return ok(vehicleResource(vehicle));
});
