import { getVehicleLocationRoute } from '../../../shared/api/routes/vehicles.ts';
import { latestLocationResource } from '../../../shared/api/serializers/locations.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { latestLocation } from '../../../shared/usecases/locations.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { latestLocationDeps } from '../../../shared/wiring/locations.ts';

export const handler = httpHandler(getVehicleLocationRoute, async ({ params }, context) => {
  const { vehicle, position } = await latestLocation(latestLocationDeps(), actingFleetId(context), params.id);
  return ok(latestLocationResource(vehicle.id, position, context.clock.now()));
});
