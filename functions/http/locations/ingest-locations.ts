import { routes } from '../../../shared/api/routes.ts';
import { LOCATION_BATCH_LIMITS } from '../../../shared/api/schemas/locations.ts';
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
  const { response } = await ingestLocations(
    { ...positionRepositories(), now: context.clock.now },
    actingFleetId(context),
    body.locations,
  );
  return ok(response);
});
