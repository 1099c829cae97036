import { updateVehicleRoute } from '../../../shared/api/routes/vehicles.ts';
import { vehicleResource } from '../../../shared/api/serializers/vehicles.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { updateVehicle } from '../../../shared/usecases/vehicles.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { vehicleDeps } from '../../../shared/wiring/vehicles.ts';

export const handler = httpHandler(updateVehicleRoute, async ({ params, body }, context) =>
  ok(vehicleResource(await updateVehicle(vehicleDeps(), actingFleetId(context), params.id, body))),
);
