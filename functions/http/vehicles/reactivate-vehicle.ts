import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { reactivateVehicleOperation } from '#shared/vehicles/api/operations.ts';
import { vehicleResource } from '#shared/vehicles/api/serializers.ts';
import { setVehicleStatus } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleDeps } from '#shared/vehicles/wiring/vehicles.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(reactivateVehicleOperation, async ({ params }, context) =>
  ok(vehicleResource(await setVehicleStatus(vehicleDeps(), actingFleetId(context), params.id, 'active'))),
);
