import { deactivateVehicleRoute } from '../../../shared/api/routes/vehicles.ts';
import { vehicleResource } from '../../../shared/api/serializers/vehicles.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { deactivateVehicle } from '../../../shared/usecases/vehicles.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { deactivationDeps } from '../../../shared/wiring/vehicle-deactivation.ts';

export const handler = httpHandler(deactivateVehicleRoute, async ({ params }, context) =>
  ok(vehicleResource(await deactivateVehicle(deactivationDeps(), actingFleetId(context), params.id))),
);
