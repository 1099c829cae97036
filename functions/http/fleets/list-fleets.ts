import { routes } from '../../../shared/api/routes.ts';
import { fleetResource } from '../../../shared/api/serializers/fleets.ts';
import { actingPartnerId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { repositories } from '../../../shared/store/repositories.ts';

export const handler = createHttpHandler(routes.listFleets, async ({ query }, context) => {
  const page = await repositories().fleets.listGranted(actingPartnerId(context), query.limit, query.cursor);
  return ok({ data: page.data.map(fleetResource), next_cursor: page.next_cursor });
});
