import { actingFleetId } from '#shared/platform/http/acting.ts';
import { noContent } from '#shared/platform/http/types.ts';
import { deleteTripOperation } from '#shared/trips/api/operations.ts';
import { deleteTrip } from '#shared/trips/usecases/trips.ts';
import { tripStoreDeps } from '#shared/trips/wiring/trip-store.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(deleteTripOperation, async ({ params }, context) => {
  await deleteTrip(tripStoreDeps(), actingFleetId(context), params.id);
  return noContent();
});
