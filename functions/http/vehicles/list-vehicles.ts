import { listVehiclesRoute } from '../../../shared/api/routes/vehicles.ts';
import { pageResource } from '../../../shared/api/serializers/common.ts';
import { vehicleResource } from '../../../shared/api/serializers/vehicles.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { listVehicles } from '../../../shared/usecases/vehicles.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { vehicleDeps } from '../../../shared/wiring/vehicles.ts';

export const handler = httpHandler(listVehiclesRoute, async ({ query }, context) => {
  const page = await listVehicles(
    vehicleDeps(),
    actingFleetId(context),
    query.status,
    query.limit,
    query.cursor,
  );
  return ok(pageResource(page, vehicleResource));
});
