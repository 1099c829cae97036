import { createTripRoute } from '../../../shared/api/routes/trips.ts';
import { tripResource } from '../../../shared/api/serializers/trips.ts';
import { actingFleetId, actingPrincipal } from '../../../shared/platform/http/acting.ts';
import { created } from '../../../shared/platform/http/types.ts';
import { createTrip } from '../../../shared/usecases/trips.ts';
import { idempotentHttpHandler } from '../../../shared/wiring/idempotent-http.ts';
import { tripDeps } from '../../../shared/wiring/trips.ts';

export const handler = idempotentHttpHandler(createTripRoute, async ({ body }, context) =>
  created(tripResource(await createTrip(tripDeps(), actingPrincipal(context), actingFleetId(context), body))),
);
