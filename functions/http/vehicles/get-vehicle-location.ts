import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { latestLocationResource } from '#shared/tracking/api/serializers.ts';
import { latestLocation } from '#shared/tracking/usecases/ingest.ts';
import { latestLocationDeps } from '#shared/tracking/wiring/tracking.ts';
import { getVehicleLocationOperation } from '#shared/vehicles/api/operations.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(getVehicleLocationOperation, async ({ params }, context) => {
  const { vehicle, position } = await latestLocation(latestLocationDeps(), actingFleetId(context), params.id);
  return ok(latestLocationResource(vehicle.id, position, context.clock.now()));
});
