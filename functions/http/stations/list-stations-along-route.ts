import { actingFleetId, actingPrincipal } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { listStationsAlongRouteOperation } from '#shared/stations/api/operations.ts';
import { corridorStationsResource } from '#shared/stations/api/serializers.ts';
import { stationsAlongRoute } from '#shared/stations/usecases/stations.ts';
import { corridorStationDeps } from '#shared/stations/wiring/stations.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(listStationsAlongRouteOperation, async ({ body }, context) => {
  const result = await stationsAlongRoute(
    corridorStationDeps(),
    actingPrincipal(context),
    actingFleetId(context),
    body,
  );
  return ok(corridorStationsResource(result, context.clock.now()));
});
