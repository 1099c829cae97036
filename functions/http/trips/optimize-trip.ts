import { optimizeTripRoute } from '../../../shared/api/routes/trips.ts';
import { tripResource } from '../../../shared/api/serializers/trips.ts';
import { actingFleetId, actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { optimizeTrip } from '../../../shared/usecases/trips.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { tripDeps } from '../../../shared/wiring/trips.ts';

export const handler = httpHandler(optimizeTripRoute, async ({ params }, context) =>
  ok(
    tripResource(await optimizeTrip(tripDeps(), actingPrincipal(context), actingFleetId(context), params.id)),
  ),
);
