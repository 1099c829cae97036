import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { updateVehicleOperation } from '#shared/vehicles/api/operations.ts';
import { vehicleResource } from '#shared/vehicles/api/serializers.ts';
import { updateVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleDeps } from '#shared/vehicles/wiring/vehicles.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(updateVehicleOperation, async ({ params, body }, context) =>
  ok(vehicleResource(await updateVehicle(vehicleDeps(), actingFleetId(context), params.id, body))),
);
