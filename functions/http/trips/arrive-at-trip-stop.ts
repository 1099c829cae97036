import { actingFleetId } from '#shared/platform/http/acting.ts';
import { noContent } from '#shared/platform/http/types.ts';
import { arriveAtTripStopOperation } from '#shared/trips/api/operations.ts';
import { recordTripStopVisit } from '#shared/trips/usecases/trips.ts';
import { tripChangeDeps } from '#shared/trips/wiring/trip-follow-up.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(arriveAtTripStopOperation, async ({ params }, context) => {
  await recordTripStopVisit(tripChangeDeps(), actingFleetId(context), params.id, params.stopId, 'arrive');
  return noContent();
});
