import { routes } from '../../../shared/api/routes.ts';
import { vehicleResource } from '../../../shared/api/serializers/vehicles.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { repositories } from '../../../shared/store/repositories.ts';

export const handler = createHttpHandler(routes.listVehicles, async ({ query }, context) => {
  const page = await repositories().vehicles.list(
    actingFleetId(context),
    query.status,
    query.limit,
    query.cursor,
  );
  return ok({ data: page.data.map(vehicleResource), next_cursor: page.next_cursor });
});
