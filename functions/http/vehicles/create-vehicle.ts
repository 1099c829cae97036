import { createVehicleRoute } from '../../../shared/api/routes/vehicles.ts';
import { createdVehicleResource } from '../../../shared/api/serializers/vehicles.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { created, ok } from '../../../shared/platform/http/types.ts';
import { createVehicle } from '../../../shared/usecases/vehicles.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { vehicleDeps } from '../../../shared/wiring/vehicles.ts';

export const handler = httpHandler(createVehicleRoute, async ({ body }, context) => {
  const { vehicle, mergedWithExisting } = await createVehicle(vehicleDeps(), actingFleetId(context), body);
  const resource = createdVehicleResource(vehicle, mergedWithExisting);
  // A merge is not a creation: 200, not 201.
  return mergedWithExisting ? ok(resource) : created(resource);
});
