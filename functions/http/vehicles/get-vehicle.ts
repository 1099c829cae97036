import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { getVehicleOperation } from '#shared/vehicles/api/operations.ts';
import { vehicleResource } from '#shared/vehicles/api/serializers.ts';
import { findVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleDeps } from '#shared/vehicles/wiring/vehicles.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(getVehicleOperation, async ({ params }, context) =>
  ok(vehicleResource(await findVehicle(vehicleDeps(), actingFleetId(context), params.id))),
);
