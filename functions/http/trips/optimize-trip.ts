import { actingFleetId, actingPrincipal } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { optimizeTripOperation } from '#shared/trips/api/operations.ts';
import { tripResource } from '#shared/trips/api/serializers.ts';
import { optimizeTrip } from '#shared/trips/usecases/trips.ts';
import { tripDeps } from '#shared/trips/wiring/trips.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(optimizeTripOperation, async ({ params }, context) =>
  ok(
    tripResource(await optimizeTrip(tripDeps(), actingPrincipal(context), actingFleetId(context), params.id)),
  ),
);
