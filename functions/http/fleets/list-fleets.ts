import { pageResource } from '#shared/api/common-serializers.ts';
import { listFleetsOperation } from '#shared/fleets/api/operations.ts';
import { fleetResource } from '#shared/fleets/api/serializers.ts';
import { listGrantedFleets } from '#shared/fleets/usecases/fleets.ts';
import { fleetDeps } from '#shared/fleets/wiring/fleets.ts';
import { actingPartnerId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(listFleetsOperation, async ({ query }, context) => {
  const page = await listGrantedFleets(fleetDeps(), actingPartnerId(context), query.limit, query.cursor);
  return ok(pageResource(page, fleetResource));
});
