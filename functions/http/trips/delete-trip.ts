import { deleteTripRoute } from '../../../shared/api/routes/trips.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { noContent } from '../../../shared/platform/http/types.ts';
import { deleteTrip } from '../../../shared/usecases/trips.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { tripStoreDeps } from '../../../shared/wiring/trip-store.ts';

export const handler = httpHandler(deleteTripRoute, async ({ params }, context) => {
  await deleteTrip(tripStoreDeps(), actingFleetId(context), params.id);
  return noContent();
});
