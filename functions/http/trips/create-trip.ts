import { actingFleetId, actingPrincipal } from '#shared/platform/http/acting.ts';
import { created } from '#shared/platform/http/types.ts';
import { createTripOperation } from '#shared/trips/api/operations.ts';
import { tripResource } from '#shared/trips/api/serializers.ts';
import { createTrip } from '#shared/trips/usecases/trips.ts';
import { tripDeps } from '#shared/trips/wiring/trips.ts';
import { idempotentHttpHandler } from '#shared/wiring/idempotent-http.ts';

export const handler = idempotentHttpHandler(createTripOperation, async ({ body }, context) =>
  created(tripResource(await createTrip(tripDeps(), actingPrincipal(context), actingFleetId(context), body))),
);
