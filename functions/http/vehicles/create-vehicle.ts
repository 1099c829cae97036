import { actingFleetId } from '#shared/platform/http/acting.ts';
import { created, ok } from '#shared/platform/http/types.ts';
import { createVehicleOperation } from '#shared/vehicles/api/operations.ts';
import { createdVehicleResource } from '#shared/vehicles/api/serializers.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleDeps } from '#shared/vehicles/wiring/vehicles.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(createVehicleOperation, async ({ body }, context) => {
  const { vehicle, mergedWithExisting } = await createVehicle(vehicleDeps(), actingFleetId(context), body);
  const resource = createdVehicleResource(vehicle, mergedWithExisting);
  // A merge is not a creation: 200, not 201.
  return mergedWithExisting ? ok(resource) : created(resource);
});
