import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { startTripOperation } from '#shared/trips/api/operations.ts';
import { tripResource } from '#shared/trips/api/serializers.ts';
import { startTrip } from '#shared/trips/usecases/trips.ts';
import { tripStartDeps } from '#shared/trips/wiring/trip-follow-up.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(startTripOperation, async ({ params }, context) =>
  ok(tripResource(await startTrip(tripStartDeps(), actingFleetId(context), params.id))),
);
