import { getTripRoute } from '../../../shared/api/routes/trips.ts';
import { tripResource } from '../../../shared/api/serializers/trips.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { getTrip } from '../../../shared/usecases/trips.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { tripReadDeps } from '../../../shared/wiring/trip-store.ts';

export const handler = httpHandler(getTripRoute, async ({ params }, context) =>
  ok(tripResource(await getTrip(tripReadDeps(), actingFleetId(context), params.id))),
);
