import { deleteFleetRoute } from '../../../shared/api/routes/fleets.ts';
import { actingPartnerId } from '../../../shared/platform/http/acting.ts';
import { noContent } from '../../../shared/platform/http/types.ts';
import { deactivateFleet } from '../../../shared/usecases/fleets.ts';
import { fleetDeps } from '../../../shared/wiring/fleets.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';

export const handler = httpHandler(deleteFleetRoute, async ({ params }, context) => {
  await deactivateFleet(fleetDeps(), actingPartnerId(context), params.id);
  return noContent();
});
