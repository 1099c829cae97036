import { listStationsAlongRouteRoute } from '../../../shared/api/routes/stations.ts';
import { corridorStationsResource } from '../../../shared/api/serializers/stations.ts';
import { actingFleetId, actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { stationsAlongRoute } from '../../../shared/usecases/stations.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { corridorStationDeps } from '../../../shared/wiring/stations.ts';

export const handler = httpHandler(listStationsAlongRouteRoute, async ({ body }, context) => {
  const result = await stationsAlongRoute(
    corridorStationDeps(),
    actingPrincipal(context),
    actingFleetId(context),
    body,
  );
  return ok(corridorStationsResource(result, context.clock.now()));
});
