import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { cancelTripOperation } from '#shared/trips/api/operations.ts';
import { tripResource } from '#shared/trips/api/serializers.ts';
import { endTrip } from '#shared/trips/usecases/trips.ts';
import { tripChangeDeps } from '#shared/trips/wiring/trip-follow-up.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(cancelTripOperation, async ({ params, body }, context) =>
  ok(
    tripResource(
      await endTrip(tripChangeDeps(), actingFleetId(context), params.id, 'cancel', body?.reason ?? null),
    ),
  ),
);
