import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { deactivateVehicleOperation } from '#shared/vehicles/api/operations.ts';
import { vehicleResource } from '#shared/vehicles/api/serializers.ts';
import { deactivateVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { deactivationDeps } from '#shared/vehicles/wiring/vehicle-deactivation.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(deactivateVehicleOperation, async ({ params }, context) =>
  ok(vehicleResource(await deactivateVehicle(deactivationDeps(), actingFleetId(context), params.id))),
);
