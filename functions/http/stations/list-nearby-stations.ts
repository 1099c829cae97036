import { actingFleetId, actingPrincipal } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { listNearbyStationsOperation } from '#shared/stations/api/operations.ts';
import { nearbyStationsResource } from '#shared/stations/api/serializers.ts';
import { nearbyStations } from '#shared/stations/usecases/stations.ts';
import { nearbyStationDeps } from '#shared/stations/wiring/stations.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(listNearbyStationsOperation, async ({ query }, context) => {
  const result = await nearbyStations(nearbyStationDeps(), actingPrincipal(context), actingFleetId(context), {
    ...query,
    accepted_only: query.accepted_only === 'true',
  });
  return ok(nearbyStationsResource(result, context.clock.now()));
});
