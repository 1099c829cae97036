import { routes } from '../../../shared/api/routes.ts';
import { LOCATION_BATCH_LIMITS } from '../../../shared/api/schemas/locations.ts';
import type { VehicleUpdateMessage } from '../../../shared/domain/telematics/messages.ts';
import { vehicleUpdatesQueue } from '../../../shared/platform/adapters/delivery-pipeline.ts';
import { ApiError } from '../../../shared/platform/errors.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { createHttpHandler } from '../../../shared/platform/http/handler.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { positionRepositories } from '../../../shared/store/position-repositories.ts';
import { ingestLocations } from '../../../shared/usecases/locations.ts';

export const handler = createHttpHandler(routes.ingestLocations, async ({ body }, context) => {
  if (body.locations.length > LOCATION_BATCH_LIMITS.maxItems) {
    throw new ApiError(
      'batch_too_large',
      `The batch has ${body.locations.length} items; at most ${LOCATION_BATCH_LIMITS.maxItems} are accepted.`,
    );
  }
  const fleetId = actingFleetId(context);
  const { response, touchedVehicleIds } = await ingestLocations(
    { ...positionRepositories(), now: context.clock.now },
    fleetId,
    body.locations,
  );
  // One message per vehicle, after the writes: the guidance worker recomputes from what is stored.
  await vehicleUpdatesQueue<VehicleUpdateMessage>().send(
    touchedVehicleIds.map((vehicleId) => ({ fleetId, vehicleId })),
  );
  return ok(response);
});
