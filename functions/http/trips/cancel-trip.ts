import { cancelTripRoute } from '../../../shared/api/routes/trips.ts';
import { tripResource } from '../../../shared/api/serializers/trips.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { endTrip } from '../../../shared/usecases/trips.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { tripChangeDeps } from '../../../shared/wiring/trip-follow-up.ts';

export const handler = httpHandler(cancelTripRoute, async ({ params, body }, context) =>
  ok(
    tripResource(
      await endTrip(tripChangeDeps(), actingFleetId(context), params.id, 'cancel', body?.reason ?? null),
    ),
  ),
);
