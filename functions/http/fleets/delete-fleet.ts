import { deleteFleetOperation } from '#shared/fleets/api/operations.ts';
import { deactivateFleet } from '#shared/fleets/usecases/fleets.ts';
import { fleetDeps } from '#shared/fleets/wiring/fleets.ts';
import { actingPartnerId } from '#shared/platform/http/acting.ts';
import { noContent } from '#shared/platform/http/types.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(deleteFleetOperation, async ({ params }, context) => {
  await deactivateFleet(fleetDeps(), actingPartnerId(context), params.id);
  return noContent();
});
