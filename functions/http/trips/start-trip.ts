import { startTripRoute } from '../../../shared/api/routes/trips.ts';
import { tripResource } from '../../../shared/api/serializers/trips.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { startTrip } from '../../../shared/usecases/trips.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { tripStartDeps } from '../../../shared/wiring/trip-follow-up.ts';

export const handler = httpHandler(startTripRoute, async ({ params }, context) =>
  ok(tripResource(await startTrip(tripStartDeps(), actingFleetId(context), params.id))),
);
