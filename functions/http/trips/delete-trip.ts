import { deleteTripRoute } from '../../../shared/api/routes/trips.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { noContent } from '../../../shared/platform/http/types.ts';
import { deleteTrip } from '../../../shared/usecases/trips.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { tripDeps } from '../../../shared/wiring/trips.ts';

export const handler = httpHandler(deleteTripRoute, async ({ params }, context) => {
  await deleteTrip(tripDeps(), actingFleetId(context), params.id);
  return noContent();
});
