import { pageResource } from '#shared/api/common-serializers.ts';
import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { listVehiclesOperation } from '#shared/vehicles/api/operations.ts';
import { vehicleResource } from '#shared/vehicles/api/serializers.ts';
import { listVehicles } from '#shared/vehicles/usecases/vehicles.ts';
import { vehicleDeps } from '#shared/vehicles/wiring/vehicles.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(listVehiclesOperation, async ({ query }, context) => {
  const page = await listVehicles(
    vehicleDeps(),
    actingFleetId(context),
    query.status,
    query.limit,
    query.cursor,
  );
  return ok(pageResource(page, vehicleResource));
});
