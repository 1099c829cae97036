import { listFleetsRoute } from '../../../shared/api/routes/fleets.ts';
import { pageResource } from '../../../shared/api/serializers/common.ts';
import { fleetResource } from '../../../shared/api/serializers/fleets.ts';
import { actingPartnerId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { listGrantedFleets } from '../../../shared/usecases/fleets.ts';
import { fleetDeps } from '../../../shared/wiring/fleets.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(listFleetsRoute, async ({ query }, context) => {
  const page = await listGrantedFleets(fleetDeps(), actingPartnerId(context), query.limit, query.cursor);
  return ok(pageResource(page, fleetResource));
});
