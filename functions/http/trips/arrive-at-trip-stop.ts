import { arriveAtTripStopRoute } from '../../../shared/api/routes/trips.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { noContent } from '../../../shared/platform/http/types.ts';
import { recordTripStopVisit } from '../../../shared/usecases/trips.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { tripChangeDeps } from '../../../shared/wiring/trip-follow-up.ts';

export const handler = httpHandler(arriveAtTripStopRoute, async ({ params }, context) => {
  await recordTripStopVisit(tripChangeDeps(), actingFleetId(context), params.id, params.stopId, 'arrive');
  return noContent();
});
