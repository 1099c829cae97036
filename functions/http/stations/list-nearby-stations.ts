import { listNearbyStationsRoute } from '../../../shared/api/routes/stations.ts';
import { nearbyStationsResource } from '../../../shared/api/serializers/stations.ts';
import { actingFleetId, actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { nearbyStations } from '../../../shared/usecases/stations.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { nearbyStationDeps } from '../../../shared/wiring/stations.ts';

export const handler = httpHandler(listNearbyStationsRoute, async ({ query }, context) => {
  const result = await nearbyStations(nearbyStationDeps(), actingPrincipal(context), actingFleetId(context), {
    ...query,
    accepted_only: query.accepted_only === 'true',
  });
  return ok(nearbyStationsResource(result, context.clock.now()));
});
