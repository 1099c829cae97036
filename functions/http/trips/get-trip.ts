import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { getTripOperation } from '#shared/trips/api/operations.ts';
import { tripResource } from '#shared/trips/api/serializers.ts';
import { getTrip } from '#shared/trips/usecases/trips.ts';
import { tripReadDeps } from '#shared/trips/wiring/trip-store.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(getTripOperation, async ({ params }, context) =>
  ok(tripResource(await getTrip(tripReadDeps(), actingFleetId(context), params.id))),
);
